import CardBakeManifest

/// A catalog's or a card's `styles`: per locale, a `title` and a `description` style block applied
/// over the style in that locale, for a script that needs another font or size. Nothing else may
/// differ between locales, so that a card's locales share its photo, feature and background.
package struct LocaleStyles {
    /// Each locale's block, holding only `title` and `description`.
    fileprivate var blocks: [LocaleTag: SchemaReader.Node] = [:]

    package init() {}

    static let blockKeys = ["title", "description"]

    var isEmpty: Bool { blocks.isEmpty }

    /// `style` with the blocks of `locale`'s fallback chain applied, broadest first (`pt`, then
    /// `pt-BR`); `decoder` reports nothing, the blocks having been checked when read.
    func applied(to style: CardStyle, for locale: LocaleTag, decoder: StyleDecoder) -> CardStyle {
        LocaleFallback.chain(for: locale).reversed().reduce(style) { style, tag in
            blocks[tag].map { decoder.overlay($0, on: style) } ?? style
        }
    }

    /// Whether any block applies to `locale`.
    func applies(to locale: LocaleTag) -> Bool {
        LocaleFallback.chain(for: locale).contains { blocks[$0] != nil }
    }
}

/// Reads a `styles` object, reporting each problem once.
struct LocaleStylesDecoder {
    let reader: SchemaReader
    let locales: CatalogLocales?
    let overrides: StyleOverrides

    /// The blocks of `node`, each checked by applying it over `base`; empty when `node` is absent.
    func decode(_ node: SchemaReader.Node?, checkedOver base: CardStyle) -> LocaleStyles {
        guard let node else { return LocaleStyles() }
        guard let locales else {
            reader.report("styles needs the catalog's locales; add \"locales\": [\"en\", …] at the top of the catalog.", at: node)
            return LocaleStyles()
        }
        let expected = "an object of style blocks keyed by locale, each with only title and description"
        guard case .object(let members) = node.value.kind else {
            reader.reportMismatch(node, expected: expected)
            return LocaleStyles()
        }
        var styles = LocaleStyles()
        let decoder = StyleDecoder(reader: reader, overrides: overrides)
        for member in members {
            let path = node.path.appending(key: member.key)
            guard let tag = LocaleTag(member.key), locales.all.contains(tag) else {
                let allowed = locales.all.map(\.description).joined(separator: ", ")
                reader.report("\(MessageText.quoted(member.key)) is not one of the catalog's locales; allowed keys: \(allowed).",
                              at: path, position: member.keyPosition)
                continue
            }
            let block = SchemaReader.Node(value: member.value, path: path)
            guard styles.blocks[tag] == nil else {
                reader.report("locale \(MessageText.quoted(tag.description)) has two style blocks.", at: path,
                              position: member.keyPosition)
                continue
            }
            guard reader.object(block, keys: LocaleStyles.blockKeys) != nil, case .object(let keys) = member.value.kind else {
                continue
            }
            // Only the two text blocks reach the style decoder, so a key it knows but a locale may
            // not change (blur, scales) is reported once, above, as not allowed here.
            var textOnly = member.value
            textOnly.kind = .object(keys.filter { LocaleStyles.blockKeys.contains($0.key) })
            let checked = SchemaReader.Node(value: textOnly, path: path)
            _ = decoder.overlay(checked, on: base)
            styles.blocks[tag] = checked
        }
        return styles
    }
}
