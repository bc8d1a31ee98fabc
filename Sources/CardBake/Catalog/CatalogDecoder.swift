/// Reads the top level of a catalog: its version, its style and its cards.
struct CatalogDecoder {
    static let supportedVersion = 1
    static let topLevelKeys = ["version", "style", "cards"]
    static let requiredKeys = ["version", "cards"]

    let reader: SchemaReader

    /// The catalog's style and cards; meaningful only if no problem was reported.
    func decode(_ root: JSONValue) -> (style: Style, cards: [Card]) {
        let node = SchemaReader.Node(value: root, path: .root)
        guard let fields = reader.object(node, keys: Self.topLevelKeys, required: Self.requiredKeys) else {
            return (Style(), [])
        }
        if let version = fields["version"] { check(version: version) }
        let style = fields["style"].map { StyleDecoder(reader: reader).overlay($0, on: Style()) } ?? Style()
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

    private func cards(_ node: SchemaReader.Node, style: Style) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        var decoder = CardDecoder(reader: reader, catalogStyle: style, cardCount: elements.count)
        return elements.enumerated().compactMap { index, element in decoder.decode(element, index: index) }
    }
}
