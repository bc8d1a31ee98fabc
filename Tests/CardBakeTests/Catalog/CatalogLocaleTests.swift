import Foundation
import Testing
@testable import CardBakeCatalog
@testable import CardBakeManifest

@Suite("Catalog locales")
struct CatalogLocaleTests {
    static func tag(_ text: String) -> LocaleTag { LocaleTag(text)! }

    /// A catalog of `locales` (JSON text) whose cards are given whole.
    static func catalog(locales: String = #"["en", "ar", "pt-BR", "ja"]"#, extra: String = "", cards: [String]) -> String {
        #"{"version": 1, "locales": \#(locales)\#(extra), "cards": [\#(cards.joined(separator: ", "))]}"#
    }

    static func card(id: String = "toucan", title: String, description: String = #""A bird.""#, extra: String = "") -> String {
        #"{"id": "\#(id)", "image": "toucan.png", "title": \#(title), "description": \#(description)\#(extra)}"#
    }

    @Test("A catalog without locales has none, and its cards no localizations")
    func noLocales() throws {
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog())
        #expect(catalog.locales == nil)
        #expect(catalog.cards[0].localizations.isEmpty)
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("Locales keep their order; the source is the first unless named; tags are canonicalised")
    func declared() throws {
        let first = try CatalogFixture.decode(Self.catalog(locales: #"["en", "AR", "pt_br"]"#, cards: []))
        #expect(first.locales?.all == ["en", "ar", "pt-BR"].map(Self.tag))
        #expect(first.locales?.source == Self.tag("en"))
        #expect(first.locales?.translated == ["ar", "pt-BR"].map(Self.tag))
        let named = try CatalogFixture.decode(Self.catalog(locales: #"["en", "ar"]"#, extra: #", "sourceLocale": "ar""#, cards: []))
        #expect(named.locales?.source == Self.tag("ar"))
        #expect(named.locales?.translated == [Self.tag("en")])
        let alone = try CatalogFixture.decode(#"{"version": 1, "sourceLocale": "de", "cards": []}"#)
        #expect(alone.locales?.all == [Self.tag("de")])
    }

    @Test("Each locale gets its text; a plain string is the source locale's; pt-BR falls back to pt")
    func texts() throws {
        let card = Self.card(title: #"{"en": "Toucan", "ar": "طوقان", "pt": "Tucano", "ja": "オオハシ"}"#,
                             description: #"{"en": "A bird.", "ar": "طائر."}"#)
        let catalog = try CatalogFixture.decode(Self.catalog(locales: #"["en", "ar", "pt", "pt-BR", "ja"]"#, cards: [card]))
        let decoded = catalog.cards[0]
        #expect(decoded.title == "Toucan")
        #expect(decoded.description == "A bird.")
        let byLocale = Dictionary(uniqueKeysWithValues: decoded.localizations.map { ($0.locale.description, $0) })
        #expect(decoded.localizations.map(\.locale.description) == ["ar", "pt", "pt-BR", "ja"])
        #expect(byLocale["ar"]?.title == "طوقان")
        #expect(byLocale["ar"]?.description == "طائر.")
        #expect(byLocale["ar"]?.untranslatedFields == [])
        #expect(byLocale["pt-BR"]?.title == "Tucano")
        #expect(byLocale["pt-BR"]?.description == "A bird.")
        #expect(byLocale["pt-BR"]?.untranslatedFields == ["description"])
        #expect(byLocale["ja"]?.untranslatedFields == ["description"])

        let localized = decoded.localized(byLocale["ja"]!)
        #expect(localized.id == decoded.id && localized.image == decoded.image && localized.index == decoded.index)
        #expect(localized.title == "オオハシ" && localized.description == "A bird." && localized.localizations.isEmpty)
    }

    @Test("Missing translations: one summary per locale with a count and the first cards; empty texts need none")
    func missing() throws {
        let cards = (0..<7).map { Self.card(id: "card-\($0)", title: #"{"en": "T", "ar": "ع"}"#) }
            + [Self.card(id: "empty", title: #""""#, description: #""""#)]
        let catalog = try CatalogFixture.decode(Self.catalog(locales: #"["en", "ar", "ja"]"#, cards: cards))
        let missing = catalog.missingTranslations
        #expect(missing.map(\.locale.description) == ["ar", "ja"])
        #expect(missing.map(\.cardCount) == [7, 7])
        #expect(missing[0].firstCardIDs == ["card-0", "card-1", "card-2", "card-3", "card-4"])
        #expect(missing[1].description == #"locale "ja": 7 cards lack a translation and show the source locale "en"'s text: "card-0", "card-1", "card-2", "card-3", "card-4", …."#)
    }

    @Test("styles: a locale's title and description blocks layer over the card's style, pt before pt-BR")
    func styles() throws {
        let extra = #", "styles": {"ja": {"title": {"font": "Noto Sans CJK JP"}}, "pt": {"title": {"size": 20}}, "pt-BR": {"description": {"size": 12}}}"#
        let own = Self.card(id: "own", title: #""T""#, extra: #", "style": {"title": {"size": 40}}, "styles": {"ja": {"title": {"size": 36}}}"#)
        let plain = Self.card(id: "plain", title: #""T""#)
        let catalog = try CatalogFixture.decode(Self.catalog(locales: #"["en", "pt", "pt-BR", "ja"]"#, extra: extra,
                                                             cards: [plain, own]))
        func style(_ card: Int, _ locale: String) -> CardStyle {
            catalog.cards[card].localizations.first { $0.locale.description == locale }!.style
        }
        #expect(catalog.cards[0].style == CardStyle())
        #expect(style(0, "ja").title.font == "Noto Sans CJK JP")
        #expect(style(0, "pt").title.size == 20 && style(0, "pt").description.size == 16)
        #expect(style(0, "pt-BR").title.size == 20 && style(0, "pt-BR").description.size == 12)
        #expect(catalog.cards[1].style.title.size == 40)
        #expect(style(1, "ja").title.font == "Noto Sans CJK JP" && style(1, "ja").title.size == 36)
        #expect(style(1, "pt").title.size == 20, "the catalog's locale block applies over the card's own style")
    }

    @Test("Problems name the JSON path, the locale and what is allowed", arguments: [
        (#"["en", "xx-"]"#, "", "locales[1]", "is not a language tag"),
        (#"["en", "EN"]"#, "", "locales[1]", #"locale "en" is listed twice"#),
        (#"[]"#, "", "locales", "allowed: an array of 1 to 200"),
        (#"["en"]"#, #", "sourceLocale": "fr""#, "sourceLocale", #"the source locale "fr" is not one of the catalog's locales (en)"#),
        (#"["en"]"#, #", "styles": {"fr": {}}"#, #"styles.fr"#, #""fr" is not one of the catalog's locales"#),
        (#"["en"]"#, #", "styles": {"en": {"blur": {"radius": 2}}}"#, #"styles.en.blur"#, "allowed keys: title, description"),
        (#"["en"]"#, #", "styles": {"en": {"title": {"size": 500}}}"#, #"styles.en.title.size"#, "out of range"),
    ])
    func catalogProblems(locales: String, extra: String, path: String, message: String) throws {
        let problem = try #require(CatalogFixture.problem(Self.catalog(locales: locales, extra: extra, cards: [])))
        #expect(problem.path == path)
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("A card's text problems name its path and locale", arguments: [
        (#"{"ar": "ع"}"#, "cards[0].title", #"missing the source locale's text, key "en""#),
        (#"{"en": "T", "fr": "T"}"#, "cards[0].title.fr", #""fr" is not one of the catalog's locales; allowed keys: the catalog's locales, en, ar"#),
        (#"{"en": "T", "ar": 5}"#, "cards[0].title.ar", "expected a string of at most 1000 characters"),
        (#"{"en": "T", "ar": "a\u0000"}"#, "cards[0].title.ar", "control character"),
        ("5", "cards[0].title", #"or an object of such strings keyed by locale ("en": …, "ar": …)"#),
    ])
    func textProblems(title: String, path: String, message: String) throws {
        let json = Self.catalog(locales: #"["en", "ar"]"#, cards: [Self.card(title: title)])
        let problem = try #require(CatalogFixture.problem(json))
        #expect(problem.path == path)
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("Without locales, a text object and styles are refused as before")
    func withoutLocales() throws {
        let object = try #require(CatalogFixture.problem(CatalogFixture.catalog(cards: [Self.card(title: #"{"en": "T"}"#)])))
        #expect(object.path == "cards[0].title")
        #expect(object.message.hasPrefix("expected a string of at most 1000 characters"))
        let styles = try #require(CatalogFixture.problem(CatalogFixture.catalog(cards: [Self.card(title: #""T""#, extra: #", "styles": {}"#)])))
        #expect(styles.path == "cards[0].styles")
        #expect(styles.message.contains("styles needs the catalog's locales"))
    }
}

@Suite("String Catalogs")
struct StringCatalogTests {
    /// An Xcode String Catalog as Xcode writes one: `toucan` translated into Arabic, `heron` into
    /// nothing (its key is its English text), `plural` only with variations.
    static let xcstrings = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "toucan" : {
          "extractionState" : "manual",
          "localizations" : {
            "ar" : { "stringUnit" : { "state" : "translated", "value" : "طوقان" } },
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Toucan" } }
          }
        },
        "Grey heron" : { },
        "plural" : {
          "localizations" : {
            "ar" : { "variations" : { "plural" : { "one" : { "stringUnit" : { "state" : "translated", "value" : "x" } } } } },
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Birds" } }
          }
        }
      },
      "version" : "1.0"
    }
    """

    static func catalog(strings: String, cards: [String]) -> String {
        CatalogLocaleTests.catalog(locales: #"["en", "ar"]"#, extra: #", "strings": "\#(strings)""#, cards: cards)
    }

    static func card(_ id: String, key: String) -> String {
        CatalogLocaleTests.card(id: id, title: #"{"key": "\#(key)"}"#, description: #""""#)
    }

    @Test("A text names a key; each locale takes its string, or falls back; a key without a source string is its text")
    func lookUp() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("Localizable.xcstrings")
            try Data(Self.xcstrings.utf8).write(to: file)
            let catalog = try CatalogFixture.decode(Self.catalog(strings: file.path, cards: [
                Self.card("toucan", key: "toucan"), Self.card("heron", key: "Grey heron"), Self.card("birds", key: "plural"),
            ]))
            #expect(catalog.cards.map(\.title) == ["Toucan", "Grey heron", "Birds"])
            #expect(catalog.cards.map { $0.localizations[0].title } == ["طوقان", "Grey heron", "Birds"])
            #expect(catalog.cards.map { $0.localizations[0].untranslatedFields } == [[], ["title"], ["title"]])
        }
    }

    @Test("The catalog's digest follows the String Catalog's bytes; an edited string changes only its cards' texts")
    func edits() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("Localizable.xcstrings")
            try Data(Self.xcstrings.utf8).write(to: file)
            let json = Self.catalog(strings: file.path, cards: [Self.card("toucan", key: "toucan"), Self.card("birds", key: "plural")])
            let before = try CatalogFixture.decode(json)
            try Data(Self.xcstrings.replacingOccurrences(of: "طوقان", with: "طوقان!").utf8).write(to: file)
            let after = try CatalogFixture.decode(json)
            #expect(before.digest != after.digest)
            #expect(before.digest != .sha256(Data(json.utf8)))
            #expect(before.cards[1] == after.cards[1])
            #expect(before.cards[0].title == after.cards[0].title)
            #expect(after.cards[0].localizations[0].title == "طوقان!")
        }
    }

    @Test("Problems: a key not in the file, a key with no String Catalog, a file that is not one")
    func problems() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("Localizable.xcstrings")
            try Data(Self.xcstrings.utf8).write(to: file)
            let missing = try #require(CatalogFixture.problem(Self.catalog(strings: file.path, cards: [Self.card("a", key: "nope")])))
            #expect(missing.path == "cards[0].title.key")
            #expect(missing.message == #"key "nope" is not in the String Catalog \#(file.path)."#)

            let none = try #require(CatalogFixture.problem(CatalogLocaleTests.catalog(cards: [Self.card("a", key: "toucan")])))
            #expect(none.path == "cards[0].title.key")
            #expect(none.message.contains("names a key of a String Catalog, and this catalog names none"))

            let broken = folder.appendingPathComponent("Broken.xcstrings")
            try Data(#"{"sourceLanguage": "en"}"#.utf8).write(to: broken)
            let bad = try #require(CatalogFixture.problem(Self.catalog(strings: broken.path, cards: [])))
            #expect(bad.path == "strings")
            #expect(bad.message == #"the String Catalog \#(broken.path) is not an Xcode String Catalog: missing key "strings" at the top level."#)

            let absent = try #require(CatalogFixture.problem(Self.catalog(strings: folder.appendingPathComponent("none.xcstrings").path, cards: [])))
            #expect(absent.path == "strings" && absent.message.contains("cannot be read"))
        }
    }
}
