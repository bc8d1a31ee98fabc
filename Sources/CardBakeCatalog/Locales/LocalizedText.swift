import CardBakeManifest

/// A title or a description in the locales of a catalog: the source locale's text and the
/// translations the catalog gives.
struct LocalizedText {
    /// The source locale's text.
    var source: String
    /// The text of each locale that has one of its own (the source locale's not among them).
    var translations: [LocaleTag: String] = [:]

    /// The text for `locale` by ``LocaleFallback`` (`pt-BR` takes `pt`'s), and whether it is in the
    /// locale's language: false when the source locale's text stands in for a missing translation.
    /// An empty source text needs no translation.
    func text(for locale: LocaleTag, in locales: CatalogLocales) -> (text: String, isTranslated: Bool) {
        let available = locales.all.filter { $0 == locales.source || translations[$0] != nil }
        guard let match = locales.fallback(among: available).match(locale) else {
            return (source, source.isEmpty)
        }
        return (translations[match] ?? source, true)
    }
}

/// Reads a card's `title` or `description`: a string, in the source locale, or in a catalog with
/// `locales` an object of strings keyed by locale, which must hold the source locale's, or
/// `{"key": "…"}` naming a key of the catalog's String Catalog.
struct LocalizedTextDecoder {
    let reader: SchemaReader
    /// nil for a catalog without `locales`, whose texts are strings.
    let locales: CatalogLocales?
    /// The catalog's `strings`, if it names one.
    var strings: StringCatalog? = nil

    func decode(_ node: SchemaReader.Node?, rule: TextRule) -> LocalizedText? {
        guard let node else { return nil }
        switch (locales, node.value.kind) {
        case (.some(let locales), .object(let members)) where members.count == 1 && members[0].key == "key":
            return decode(key: SchemaReader.Node(value: members[0].value, path: node.path.appending(key: "key")),
                          locales: locales, rule: rule)
        case (.some(let locales), .object(let members)):
            return decode(members, at: node, locales: locales, rule: rule)
        case (.some, .string), (.none, _):
            return reader.text(node, rule: rule).map { LocalizedText(source: $0) }
        case (.some(let locales), _):
            reader.reportMismatch(node, expected: "\(rule.allowed), or an object of such strings keyed by locale"
                                  + " (\(Self.exampleKeys(locales)))")
            return nil
        }
    }

    private func decode(_ members: [JSONValue.Member], at node: SchemaReader.Node, locales: CatalogLocales,
                        rule: TextRule) -> LocalizedText? {
        var text = LocalizedText(source: "")
        var hasSource = false
        var valid = true
        var seen: Set<LocaleTag> = []
        for member in members {
            let path = node.path.appending(key: member.key)
            let allowedKeys = "the catalog's locales, \(locales.all.map(\.description).joined(separator: ", "))"
            guard let tag = LocaleTag(member.key), locales.all.contains(tag) else {
                reader.report("\(MessageText.quoted(member.key)) is not one of the catalog's locales; allowed keys: \(allowedKeys).",
                              at: path, position: member.keyPosition)
                valid = false
                continue
            }
            guard seen.insert(tag).inserted else {
                reader.report("locale \(MessageText.quoted(tag.description)) appears twice in this text.",
                              at: path, position: member.keyPosition)
                valid = false
                continue
            }
            guard let value = reader.text(SchemaReader.Node(value: member.value, path: path), rule: rule) else {
                valid = false
                continue
            }
            if tag == locales.source {
                text.source = value
                hasSource = true
            } else {
                text.translations[tag] = value
            }
        }
        if valid, !hasSource {
            reader.report("missing the source locale's text, key \(MessageText.quoted(locales.source.description));"
                          + " every translated text needs it, as the one the other locales fall back to.", at: node)
            valid = false
        }
        return valid ? text : nil
    }

    /// The texts of a String Catalog key: the catalog's locales' strings, each by `rule`.
    private func decode(key node: SchemaReader.Node, locales: CatalogLocales, rule: TextRule) -> LocalizedText? {
        guard let key = reader.string(node, expected: "a key of the catalog's String Catalog") else { return nil }
        guard let strings else {
            reader.report("a text {\"key\": …} names a key of a String Catalog, and this catalog names none; add"
                          + " \"strings\": \"Localizable.xcstrings\" at its top level.", at: node)
            return nil
        }
        guard let byLanguage = strings.strings[key] else {
            reader.report("key \(MessageText.quoted(key)) is not in the String Catalog \(strings.file.path).", at: node)
            return nil
        }
        guard let source = byLanguage[locales.source] else {
            reader.report("key \(MessageText.quoted(key)) of the String Catalog \(strings.file.path) has no string in the"
                          + " source locale \(MessageText.quoted(locales.source.description)).", at: node)
            return nil
        }
        var valid = true
        for locale in locales.all {
            guard let text = byLanguage[locale], let problem = rule.problem(with: text) else { continue }
            reader.report("key \(MessageText.quoted(key)) in locale \(MessageText.quoted(locale.description)): \(problem)", at: node)
            valid = false
        }
        guard valid else { return nil }
        var text = LocalizedText(source: source)
        for locale in locales.translated {
            text.translations[locale] = byLanguage[locale]
        }
        return text
    }

    private static func exampleKeys(_ locales: CatalogLocales) -> String {
        locales.all.prefix(3).map { "\"\($0)\": …" }.joined(separator: ", ")
    }
}
