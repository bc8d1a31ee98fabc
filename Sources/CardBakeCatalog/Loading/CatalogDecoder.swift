import CardBakeManifest

/// Reads the top level of a catalog: its version, its locales, its style and its cards.
package struct CatalogDecoder {
    package static let supportedVersion = 1
    package static let topLevelKeys = ["version", "locales", "sourceLocale", "strings", "style", "styles", "cards"]
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
        let localeStyles = LocaleStylesDecoder(reader: reader, locales: locales, overrides: overrides)
            .decode(fields["styles"], checkedOver: style)
        let strings = fields["strings"].flatMap { stringCatalog($0, locales: locales) }
        let decoded = fields["cards"].map {
            cards($0, style: style, locales: locales, localeStyles: localeStyles, strings: strings)
        } ?? []
        return Decoded(style: style, cards: decoded, locales: locales, stringsDigest: strings?.digest)
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

    private func cards(_ node: SchemaReader.Node, style: CardStyle, locales: CatalogLocales?,
                       localeStyles: LocaleStyles, strings: StringCatalog?) -> [Card] {
        guard let elements = reader.array(node, expected: "an array of card objects") else { return [] }
        return CardDecoder(reader: reader, catalogStyle: style, overrides: overrides, locales: locales,
                           localeStyles: localeStyles, strings: strings).decode(elements)
    }
}
