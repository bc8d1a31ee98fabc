/// The one rule that decides which of the localizations at hand serves a wanted language: the build
/// uses it for a card's missing translation, CardBakeKit for the device's preferred languages.
///
/// For a wanted tag it tries, in order, the tag itself, then each tag less its last subtag
/// (`zh-Hant-TW`, `zh-Hant`, `zh`; `pt-BR`, `pt`), with Chinese's script known from its region
/// (`zh-TW` is `zh-Hant`); then the first localization of the same language, one of the same script
/// first (`pt-PT` for `pt-BR`, `zh-Hans` for `zh-Hant`); else nothing, and the caller takes the
/// source locale.
public struct LocaleFallback: Sendable {
    /// The localizations at hand, in the order to prefer among equals (a catalog's `locales` order).
    public let available: [LocaleTag]
    /// What serves a language nothing else does.
    public let source: LocaleTag

    public init(available: [LocaleTag], source: LocaleTag) {
        self.available = available
        self.source = source
    }

    /// The available localization that serves `wanted`, or nil when none is in its language.
    public func match(_ wanted: LocaleTag) -> LocaleTag? {
        let held = Set(available)
        if let exact = Self.chain(for: wanted).first(where: held.contains) { return exact }
        let sameLanguage = available.filter { $0.language == wanted.language }
        let script = Self.script(of: wanted)
        return sameLanguage.first { Self.script(of: $0) == script } ?? sameLanguage.first
    }

    /// What serves `wanted`: its ``match(_:)``, else the source locale.
    public func resolve(_ wanted: LocaleTag) -> LocaleTag {
        match(wanted) ?? source
    }

    /// What serves a device whose languages are `preferredLanguages` (most preferred first, as iOS's
    /// `Locale.preferredLanguages` and Android's `LocaleList` give them): the first with a
    /// ``match(_:)``, else the source locale. Strings that are not language tags are passed over.
    public func resolve(preferredLanguages: [String]) -> LocaleTag {
        for language in preferredLanguages {
            if let tag = LocaleTag(language), let match = match(tag) { return match }
        }
        return source
    }

    /// `wanted`, then `wanted` less one subtag at a time; a Chinese tag without a script tries the
    /// script its region implies before its parents.
    public static func chain(for wanted: LocaleTag) -> [LocaleTag] {
        var chain: [LocaleTag] = []
        var next: LocaleTag? = wanted
        while let tag = next {
            chain.append(tag)
            if tag.script == nil, let script = script(of: tag), let scripted = LocaleTag("\(tag.language)-\(script)") {
                chain.append(scripted)
            }
            next = tag.parent
        }
        var seen = Set<LocaleTag>()
        return chain.filter { seen.insert($0).inserted }
    }

    /// The script a tag is written in when it says, or for Chinese when its region implies it.
    private static func script(of tag: LocaleTag) -> String? {
        if let script = tag.script { return script }
        guard tag.language == "zh", let region = tag.region else { return nil }
        return ["TW", "HK", "MO"].contains(region) ? "Hant" : "Hans"
    }
}
