/// Reads the top level of a catalog: its version, its style and its cards.
package struct CatalogDecoder {
    package static let supportedVersion = 1
    package static let topLevelKeys = ["version", "style", "cards"]
    package static let requiredKeys = ["version", "cards"]

    package let reader: SchemaReader
    /// Applied over the catalog's style and every card's.
    package let overrides: StyleOverrides

    /// The catalog's style and cards, overrides applied; meaningful only if no problem was reported.
    package func decode(_ root: JSONValue) -> (style: CardStyle, cards: [Card]) {
        let node = SchemaReader.Node(value: root, path: .root)
        // Nothing to check: no override makes the default style too tall for an encoder (at scale 4 it is
        // 5040 pixels tall).
        let defaults = overrides.applied(to: CardStyle())
        guard let fields = reader.object(node, keys: Self.topLevelKeys, required: Self.requiredKeys) else {
            return (defaults, [])
        }
        if let version = fields["version"] { check(version: version) }
        let style = fields["style"].map { StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: defaults) }
            ?? defaults
        return (style, fields["cards"].map { cards($0, style: style) } ?? [])
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

    private func cards(_ node: SchemaReader.Node, style: CardStyle) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        return CardDecoder(reader: reader, catalogStyle: style, overrides: overrides).decode(elements)
    }
}
