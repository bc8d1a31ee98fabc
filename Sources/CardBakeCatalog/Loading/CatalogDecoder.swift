/// Reads the top level of a catalog: its version, its locales, its style and its cards.
package struct CatalogDecoder {
    package static let supportedVersion = 1
    package static let topLevelKeys = ["version", "locales", "sourceLocale", "style", "styles", "cards"]
    package static let requiredKeys = ["version", "cards"]

    package let reader: SchemaReader
    /// Applied over the catalog's style and every card's.
    package let overrides: StyleOverrides

    /// The catalog's style, cards and locales, overrides applied; meaningful only if no problem was reported.
    package func decode(_ root: JSONValue) -> (style: CardStyle, cards: [Card], locales: CatalogLocales?) {
        let node = SchemaReader.Node(value: root, path: .root)
        // Nothing to check: no override makes the default style too tall for an encoder (at scale 4 it is
        // 5040 pixels tall).
        let defaults = overrides.applied(to: CardStyle())
        guard let fields = reader.object(node, keys: Self.topLevelKeys, required: Self.requiredKeys) else {
            return (defaults, [], nil)
        }
        if let version = fields["version"] { check(version: version) }
        let locales = CatalogLocalesDecoder(reader: reader).decode(locales: fields["locales"], source: fields["sourceLocale"])
        let style = fields["style"].map { StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: defaults) }
            ?? defaults
        let localeStyles = LocaleStylesDecoder(reader: reader, locales: locales, overrides: overrides)
            .decode(fields["styles"], checkedOver: style)
        let decoded = fields["cards"].map { cards($0, style: style, locales: locales, localeStyles: localeStyles) } ?? []
        return (style, decoded, locales)
    }

    private func check(version node: SchemaReader.Node) {
        let supported = Self.supportedVersion
        guard case .number(let version) = node.value.kind else {
            reader.reportMismatch(node, expected: "the integer \(supported)")
            return
        }
        if version != Double(supported) {
            reader.report("unsupported catalog version \(MessageText.number(version)); this cardbake reads version \(supported).", at: node)
        }
    }

    private func cards(_ node: SchemaReader.Node, style: CardStyle, locales: CatalogLocales?,
                       localeStyles: LocaleStyles) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        return CardDecoder(reader: reader, catalogStyle: style, overrides: overrides, locales: locales,
                           localeStyles: localeStyles).decode(elements)
    }
}
