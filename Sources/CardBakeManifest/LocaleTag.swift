/// A language tag as a catalog, a String Catalog and a device name it (BCP 47's language, script,
/// region and variants: `en`, `pt-BR`, `zh-Hant`, `sr-Latn-RS`), held in canonical case.
///
/// Parsing accepts any case and `_` for `-` (`pt_br` is `pt-BR`), so that a device's preferred
/// language and a catalog's key compare equal. Extensions (`-u-…`) and private use (`x-…`) are
/// refused: no platform picks a bundled localization by them. Foundation's `Locale` is not used: its
/// identifiers differ between Apple platforms and Linux.
public struct LocaleTag: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 2–3 letters (or 5–8 for a registered language), lower case: `pt`.
    public let language: String
    /// 4 letters, title case: `Hant`.
    public let script: String?
    /// 2 letters upper case (`BR`) or 3 digits (`419`).
    public let region: String?
    /// Each 5–8 letters or digits, or a digit and 3 more, lower case.
    public let variants: [String]

    /// The tag in `text`, in canonical case, or nil when it is not a language tag (``problem(with:)`` says why).
    public init?(_ text: String) {
        guard case .success(let tag) = Self.parse(text) else { return nil }
        self = tag
    }

    private init(language: String, script: String?, region: String?, variants: [String]) {
        self.language = language
        self.script = script
        self.region = region
        self.variants = variants
    }

    /// Why `text` is not a language tag, for messages; nil when it is one.
    public static func problem(with text: String) -> String? {
        if case .failure(let problem) = parse(text) { return problem.message }
        return nil
    }

    /// `pt-BR`, `zh-Hant`, `sr-Latn-RS`.
    public var description: String {
        ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
    }

    /// This tag less its last subtag (`zh-Hant-TW` → `zh-Hant`, `pt-BR` → `pt`); nil for a bare language.
    public var parent: LocaleTag? {
        if !variants.isEmpty {
            return LocaleTag(language: language, script: script, region: region, variants: variants.dropLast())
        }
        if region != nil { return LocaleTag(language: language, script: script, region: nil, variants: []) }
        if script != nil { return LocaleTag(language: language, script: nil, region: nil, variants: []) }
        return nil
    }

    /// Whether text in this language is written right to left by default: Arabic, Hebrew, Persian,
    /// Urdu and the other languages of right-to-left scripts, or an explicit right-to-left script
    /// (`Arab`, `Hebr`, …). `az-Arab` is right to left, `az` is not.
    public var isRightToLeft: Bool {
        if let script { return Self.rightToLeftScripts.contains(script) }
        return Self.rightToLeftLanguages.contains(language)
    }

    /// Languages written in a right-to-left script unless a script subtag says otherwise.
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "lrc", "mzn", "nqo", "ps", "sd", "syr",
        "ug", "ur", "yi",
    ]
    /// ISO 15924 codes of right-to-left scripts.
    private static let rightToLeftScripts: Set<String> = [
        "Adlm", "Arab", "Aran", "Hebr", "Mand", "Mend", "Nkoo", "Rohg", "Samr", "Syrc", "Thaa", "Yezi",
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tag = LocaleTag(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: LocaleTag.problem(with: text)!)
        }
        self = tag
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private struct Problem: Error {
        var message: String
    }

    private static func parse(_ text: String) -> Result<LocaleTag, Problem> {
        let allowed = "a BCP 47 language tag: a language, then optionally a script, a region and variants, such as \"en\", \"pt-BR\", \"zh-Hant\""
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)
        guard text.utf8.count <= 64, subtags.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isASCIIAlphanumeric) }) else {
            return .failure(Problem(message: "\(quoted(text)) is not a language tag; allowed: \(allowed)."))
        }
        var rest = subtags[...]
        let language = rest.removeFirst()
        guard isLetters(language), (2...3).contains(language.count) || (5...8).contains(language.count) else {
            return .failure(Problem(message: "\(quoted(text)) does not start with a language (2 or 3 letters); allowed: \(allowed)."))
        }
        var script: String?
        if let next = rest.first, next.count == 4, isLetters(next) {
            script = next.prefix(1).uppercased() + next.dropFirst().lowercased()
            rest.removeFirst()
        }
        var region: String?
        if let next = rest.first, (next.count == 2 && isLetters(next)) || (next.count == 3 && isDigits(next)) {
            region = next.uppercased()
            rest.removeFirst()
        }
        var variants: [String] = []
        while let next = rest.first, isVariant(next) {
            variants.append(next.lowercased())
            rest.removeFirst()
        }
        if let next = rest.first {
            return .failure(Problem(message: "\(quoted(text)) has a subtag \(quoted(next)) that is no script, region or variant in its place; extensions and private use are not supported; allowed: \(allowed)."))
        }
        return .success(LocaleTag(language: language.lowercased(), script: script, region: region, variants: variants))
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetters(_ text: String) -> Bool { text.utf8.allSatisfy(isLetter) }
    private static func isDigits(_ text: String) -> Bool { text.utf8.allSatisfy(isDigit) }
    private static func isVariant(_ text: String) -> Bool {
        (5...8).contains(text.count) || (text.count == 4 && isDigit(text.utf8.first!))
    }
    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
