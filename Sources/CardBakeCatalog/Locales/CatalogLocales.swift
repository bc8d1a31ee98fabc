import CardBakeManifest

/// The languages a catalog is built in: its `locales` and its `sourceLocale`.
public struct CatalogLocales: Sendable, Equatable {
    /// Every locale, in the catalog's order; holds ``source``.
    public let all: [LocaleTag]
    /// The locale of the catalog's plain-string texts, which serves a language no translation does;
    /// its bitmaps go where a catalog without `locales` puts them.
    public let source: LocaleTag

    package init(all: [LocaleTag], source: LocaleTag) {
        precondition(all.contains(source), "the source locale is one of the locales")
        self.all = all
        self.source = source
    }

    /// ``all`` less ``source``, in order: the locales whose bitmaps go in folders of their own.
    public var translated: [LocaleTag] { all.filter { $0 != source } }

    /// The fallback among texts held in `available` locales, to the source locale.
    func fallback(among available: [LocaleTag]) -> LocaleFallback {
        LocaleFallback(available: available, source: source)
    }
}

/// Reads a catalog's `locales` and `sourceLocale`.
struct CatalogLocalesDecoder {
    let reader: SchemaReader

    /// The most locales a catalog may have.
    static let maximumCount = 200

    /// The locales, nil when the catalog declares neither key or after reporting a problem.
    func decode(locales localesNode: SchemaReader.Node?, source sourceNode: SchemaReader.Node?) -> CatalogLocales? {
        let source = sourceNode.flatMap(tag)
        guard let localesNode else {
            return source.map { CatalogLocales(all: [$0], source: $0) }
        }
        let allowed = "an array of 1 to \(Self.maximumCount) distinct BCP 47 language tags, such as [\"en\", \"ar\", \"pt-BR\"]"
        guard let elements = reader.array(localesNode, expected: allowed) else { return nil }
        guard (1...Self.maximumCount).contains(elements.count) else {
            reader.report("the array has \(elements.count) locales; allowed: \(allowed).", at: localesNode)
            return nil
        }
        var all: [LocaleTag] = []
        var firstIndex: [LocaleTag: Int] = [:]
        var valid = true
        for (index, element) in elements.enumerated() {
            guard let tag = tag(element) else {
                valid = false
                continue
            }
            if let first = firstIndex[tag] {
                reader.report("locale \(MessageText.quoted(tag.description)) is listed twice; first at locales[\(first)].", at: element)
                valid = false
                continue
            }
            firstIndex[tag] = index
            all.append(tag)
        }
        guard valid else { return nil }
        guard let source else {
            return sourceNode == nil ? CatalogLocales(all: all, source: all[0]) : nil
        }
        guard all.contains(source) else {
            reader.report("the source locale \(MessageText.quoted(source.description)) is not one of the catalog's locales"
                          + " (\(all.map(\.description).joined(separator: ", "))); add it to locales.", at: sourceNode!)
            return nil
        }
        return CatalogLocales(all: all, source: source)
    }

    /// A language tag, in canonical case.
    func tag(_ node: SchemaReader.Node) -> LocaleTag? {
        guard let text = reader.string(node, expected: "a BCP 47 language tag such as \"en\" or \"pt-BR\"") else { return nil }
        guard let tag = LocaleTag(text) else {
            reader.report(LocaleTag.problem(with: text)!, at: node)
            return nil
        }
        return tag
    }
}
