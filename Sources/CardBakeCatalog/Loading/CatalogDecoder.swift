/// Reads the top level of a catalog: its version, its style and its cards.
package struct CatalogDecoder {
    package static let supportedVersion = 1
    package static let topLevelKeys = ["version", "style", "remoteImages", "cards"]
    package static let requiredKeys = ["version", "cards"]

    package let reader: SchemaReader
    /// Applied over the catalog's style and every card's.
    package let overrides: StyleOverrides

    /// The catalog's style, its `remoteImages` and its cards, overrides applied; meaningful only if no
    /// problem was reported.
    package func decode(_ root: JSONValue) -> (style: CardStyle, remoteImages: RemoteImagePolicy?, cards: [Card]) {
        let node = SchemaReader.Node(value: root, path: .root)
        // Nothing to check: no override makes the default style too tall for an encoder (at scale 4 it is
        // 5040 pixels tall).
        let defaults = overrides.applied(to: CardStyle())
        guard let fields = reader.object(node, keys: Self.topLevelKeys, required: Self.requiredKeys) else {
            return (defaults, nil, [])
        }
        if let version = fields["version"] { check(version: version) }
        let style = fields["style"].map { StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: defaults) }
            ?? defaults
        var remoteImages: RemoteImagePolicy?
        var urlRule = CardDecoder.RemoteImages.absent
        if let node = fields["remoteImages"] {
            remoteImages = remoteImagePolicy(node)
            urlRule = remoteImages.map(CardDecoder.RemoteImages.read) ?? .invalid
        }
        let decoded = fields["cards"].map { cards($0, style: style, remoteImages: urlRule) } ?? []
        return (style, remoteImages, decoded)
    }

    /// `{"allow": ["cdn.example.com", "*.example.org/photos/"], "maxAge": "1d"}`.
    private func remoteImagePolicy(_ node: SchemaReader.Node) -> RemoteImagePolicy? {
        let problemsBefore = reader.log.count
        guard let fields = reader.object(node, keys: ["allow", "maxAge"], required: ["allow"]) else { return nil }
        var patterns: [URLPattern] = []
        if let allow = fields["allow"], let entries = reader.array(allow, expected: "an array of host patterns") {
            for entry in entries {
                let expected = "a host pattern: a host, *. and a domain, an optional :port and /path prefix (cdn.example.com, *.example.org/photos/)"
                guard let text = reader.string(entry, expected: expected) else { continue }
                guard let pattern = URLPattern(text) else {
                    reader.report("\(MessageText.quoted(text)) is not \(expected).", at: entry)
                    continue
                }
                patterns.append(pattern)
            }
            if entries.isEmpty { reader.report("the list is empty; name at least one host photos may come from.", at: allow) }
        }
        var maxAge = RemoteImagePolicy.defaultMaxAge
        if let node = fields["maxAge"] {
            let expected = "a duration: a count and s, m, h or d (\"30m\", \"1d\"), or \"0\""
            if let text = reader.string(node, expected: expected) {
                if let age = RemoteImagePolicy.maxAge(from: text) {
                    maxAge = age
                } else {
                    reader.report("\(MessageText.quoted(text)) is not \(expected).", at: node)
                }
            }
        }
        return reader.log.count == problemsBefore ? RemoteImagePolicy(allow: patterns, maxAge: maxAge) : nil
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

    private func cards(_ node: SchemaReader.Node, style: CardStyle, remoteImages: CardDecoder.RemoteImages) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        return CardDecoder(reader: reader, catalogStyle: style, overrides: overrides, remoteImages: remoteImages)
            .decode(elements)
    }
}
