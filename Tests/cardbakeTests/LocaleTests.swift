import Foundation
import Testing

/// A catalog with locales: missing translations warn once per locale, or with `--strict` refuse the catalog.
@Suite("Catalog locales on the command line")
struct LocaleCommandTests {
    /// Three locales; `coffee` is translated into Arabic only, `astronaut` not at all.
    static let catalog = """
    {"version": 1, "locales": ["en", "ar", "ja"], "style": {"scales": [1]}, "cards": [
      {"id": "coffee", "image": "images/coffee.jpg", "title": {"en": "Coffee", "ar": "قهوة"}, "description": ""},
      {"id": "astronaut", "image": "images/astronaut.jpg", "title": "Eileen Collins", "description": ""}
    ]}
    """

    @Test("A missing translation warns once per locale, naming the count and the cards, and the build succeeds")
    func warning() throws {
        try withCardsOfCoffeeAndAstronaut(catalog: Self.catalog) { sandbox in

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            #expect(result.status == 0, result.comment)
            let warnings = result.stderrLines.filter { $0.hasPrefix("warning:") }
            #expect(warnings == [
                #"warning: catalog.json: locale "ar": 1 card lacks a translation and shows the source locale "en"'s text: "astronaut"."#,
                #"warning: catalog.json: locale "ja": 2 cards lack a translation and show the source locale "en"'s text: "coffee", "astronaut"."#,
            ], result.comment)
        }
    }

    @Test("One build writes every locale; an edited translation renders that card in that locale only, over its cached background (--report)")
    func editedTranslation() throws {
        let catalog = { (japanese: String) in
            #"""
            {"version": 1, "locales": ["en", "ar", "ja"], "style": {"scales": [1]}, "cards": [
              {"id": "coffee", "image": "images/coffee.jpg", "title": {"en": "Coffee", "ar": "قهوة", "ja": "\#(japanese)"}, "description": ""},
              {"id": "astronaut", "image": "images/astronaut.jpg", "title": {"en": "Eileen Collins", "ar": "آيلين كولينز", "ja": "アイリーン"}, "description": ""}
            ]}
            """#
        }
        try withCardsOfCoffeeAndAstronaut(catalog: catalog("コーヒー")) { sandbox in
            let build = ["build", "catalog.json", "--output", "OUT", "--cache-dir", "CACHE", "--report", "report.json"]
            let first = try sandbox.run(build)
            #expect(first.status == 0, first.comment)
            #expect(sandbox.fileNames("OUT/cards/ar") == ["astronaut@1x.jpg", "coffee@1x.jpg"])
            #expect(sandbox.fileNames("OUT/cards/ja") == ["astronaut@1x.jpg", "coffee@1x.jpg"])

            try sandbox.write(catalog("珈琲"), to: "catalog.json")
            let edited = try sandbox.run(build)

            #expect(edited.status == 0, edited.comment)
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.card("astronaut")?.status == "cached")
            let coffee = try #require(report.card("coffee"))
            #expect(coffee.status == "rendered" && coffee.reason == "in locale ja: title or description changed")
            #expect(coffee.stages?.background == "cached" && coffee.stages?.images == ["1x": "cached"])
            #expect(coffee.stages?.translations == ["ar": ["1x": "cached"], "ja": ["1x": "rendered"]])
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.entry("coffee")?.localizations?["ja"]?.title == "珈琲")
        }
    }

    @Test("With --strict a missing translation refuses the catalog (exit 2), naming each locale")
    func strict() throws {
        try withCardsOfCoffeeAndAstronaut(catalog: Self.catalog) { sandbox in

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--strict"])

            #expect(result.exited && result.status == 2, result.comment)
            let errors = result.stderrLines.filter { $0.contains("--strict refuses a missing translation") }
            #expect(errors.count == 2, result.comment)
            #expect(errors.first?.contains(#"catalog.json: locale "ar": 1 card lacks a translation"#) == true, result.comment)
            #expect(!sandbox.exists("OUT/manifest.json"))
        }
    }
}

@Suite("String Catalogs on the command line")
struct StringCatalogCommandTests {
    static func strings(toucan: String) -> String {
        """
        {"sourceLanguage": "en", "version": "1.0", "strings": {
          "toucan": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "\(toucan)"}}}},
          "coffee": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Coffee"}}}}
        }}
        """
    }

    static let catalog = """
    {"version": 1, "locales": ["en"], "strings": "Localizable.xcstrings", "style": {"scales": [1]}, "cards": [
      {"id": "coffee", "image": "images/coffee.jpg", "title": {"key": "coffee"}, "description": ""},
      {"id": "astronaut", "image": "images/astronaut.jpg", "title": {"key": "toucan"}, "description": ""}
    ]}
    """

    @Test("Editing one string re-renders only the card that uses it, not its background; an unchanged file renders nothing")
    func editOneString() throws {
        try withCardsOfCoffeeAndAstronaut(catalog: Self.catalog) { sandbox in
            try sandbox.write(Self.strings(toucan: "Toucan"), to: "Localizable.xcstrings")
            let build = ["build", "catalog.json", "--output", "OUT", "--cache-dir", "CACHE", "--report", "report.json"]
            let first = try sandbox.run(build)
            #expect(first.status == 0, first.comment)

            let again = try sandbox.run(build)
            #expect(again.status == 0, again.comment)
            #expect(try ReportFile.read(from: sandbox.url("report.json")).cards.map(\.status) == ["cached", "cached"])

            try sandbox.write(Self.strings(toucan: "Keel-billed toucan"), to: "Localizable.xcstrings")
            let edited = try sandbox.run(build)
            #expect(edited.status == 0, edited.comment)
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.card("coffee")?.status == "cached")
            #expect(report.card("astronaut")?.status == "rendered")
            #expect(report.card("astronaut")?.stages?.background == "cached")
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.title) == ["Coffee", "Keel-billed toucan"])
        }
    }
}

/// Runs `body` in a sandbox holding `catalog` as `catalog.json` and the two photos its cards show.
private func withCardsOfCoffeeAndAstronaut(catalog: String, _ body: (Sandbox) throws -> Void) throws {
    try Sandbox.with { sandbox in
        try sandbox.copyImage("coffee.jpg")
        try sandbox.copyImage("astronaut.jpg")
        try sandbox.write(catalog, to: "catalog.json")
        try body(sandbox)
    }
}
