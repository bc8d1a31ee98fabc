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
        try Sandbox.with { sandbox in
            try sandbox.copyImage("coffee.jpg")
            try sandbox.copyImage("astronaut.jpg")
            try sandbox.write(Self.catalog, to: "catalog.json")

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            #expect(result.status == 0, result.comment)
            let warnings = result.stderrLines.filter { $0.hasPrefix("warning:") }
            #expect(warnings == [
                #"warning: catalog.json: locale "ar": 1 card lacks a translation and shows the source locale "en"'s text: "astronaut"."#,
                #"warning: catalog.json: locale "ja": 2 cards lack a translation and show the source locale "en"'s text: "coffee", "astronaut"."#,
            ], result.comment)
        }
    }

    @Test("With --strict a missing translation refuses the catalog (exit 2), naming each locale")
    func strict() throws {
        try Sandbox.with { sandbox in
            try sandbox.copyImage("coffee.jpg")
            try sandbox.copyImage("astronaut.jpg")
            try sandbox.write(Self.catalog, to: "catalog.json")

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--strict"])

            #expect(result.exited && result.status == 2, result.comment)
            let errors = result.stderrLines.filter { $0.contains("--strict refuses a missing translation") }
            #expect(errors.count == 2, result.comment)
            #expect(errors.first?.contains(#"catalog.json: locale "ar": 1 card lacks a translation"#) == true, result.comment)
            #expect(!sandbox.exists("OUT/manifest.json"))
        }
    }
}
