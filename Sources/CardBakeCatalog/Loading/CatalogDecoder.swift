import CardBakeManifest

/// Reads the top level of a catalog: its version, its locales, its style and its cards.
package struct CatalogDecoder {
    package static let supportedVersion = 1
    package static let topLevelKeys = ["version", "locales", "sourceLocale", "strings", "style", "styles", "remoteImages", "cards"]
    package static let requiredKeys = ["version", "cards"]

    package let reader: SchemaReader
    /// Applied over the catalog's style and every card's.
    package let overrides: StyleOverrides

    /// What a catalog's top level decodes to; meaningful only if no problem was reported.
    package struct Decoded {
        /// The catalog's style, overrides applied.
        var style: CardStyle
        var cards: [Card] = []
        var locales: CatalogLocales? = nil
        /// SHA-256 of the String Catalog's bytes, when the catalog names one.
        var stringsDigest: ContentDigest? = nil
        /// Where photos given as URLs may come from; nil when the catalog has no `remoteImages`.
        var remoteImages: RemoteImagePolicy? = nil
    }

    package func decode(_ root: JSONValue) -> Decoded {
        let node = SchemaReader.Node(value: root, path: .root)
        // Nothing to check: no override makes the default style too tall for an encoder (at scale 4 it is
        // 5040 pixels tall).
        let defaults = overrides.applied(to: CardStyle())
        guard let fields = reader.object(node, keys: Self.topLevelKeys, required: Self.requiredKeys) else {
            return Decoded(style: defaults)
        }
        if let version = fields["version"] { check(version: version) }
        let locales = CatalogLocalesDecoder(reader: reader).decode(locales: fields["locales"], source: fields["sourceLocale"])
        let style = fields["style"].map { StyleDecoder(reader: reader, overrides: overrides).overlay($0, on: defaults) }
            ?? defaults
        var remoteImages: RemoteImagePolicy?
        var urlRule = CardDecoder.RemoteImages.absent
        if let node = fields["remoteImages"] {
            remoteImages = remoteImagePolicy(node)
            urlRule = remoteImages.map(CardDecoder.RemoteImages.read) ?? .invalid
        }
        let localeStyles = LocaleStylesDecoder(reader: reader, locales: locales, overrides: overrides)
            .decode(fields["styles"], checkedOver: style)
        let strings = fields["strings"].flatMap { stringCatalog($0, locales: locales) }
        let decoded = fields["cards"].map {
            cards($0, style: style, remoteImages: urlRule, locales: locales, localeStyles: localeStyles, strings: strings)
        } ?? []
        return Decoded(style: style, cards: decoded, locales: locales, stringsDigest: strings?.digest,
                       remoteImages: remoteImages)
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

    /// The String Catalog `strings` names, read, or nil after reporting why it cannot be used.
    private func stringCatalog(_ node: SchemaReader.Node, locales: CatalogLocales?) -> StringCatalog? {
        guard let file = reader.filePath(node) else { return nil }
        guard locales != nil else {
            reader.report("strings needs the catalog's locales; add \"locales\": [\"en\", …] at the top of the catalog.", at: node)
            return nil
        }
        switch StringCatalog.load(file) {
        case .success(let strings):
            return strings
        case .failure(let problem):
            reader.report(problem.message, at: node)
            return nil
        }
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

    private func cards(_ node: SchemaReader.Node, style: CardStyle, remoteImages: CardDecoder.RemoteImages,
                       locales: CatalogLocales?, localeStyles: LocaleStyles, strings: StringCatalog?) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        return CardDecoder(reader: reader, catalogStyle: style, overrides: overrides, remoteImages: remoteImages,
                           locales: locales, localeStyles: localeStyles, strings: strings).decode(elements)
    }
}
