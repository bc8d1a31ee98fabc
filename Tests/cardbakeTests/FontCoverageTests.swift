import Foundation
import Testing

/// Text the installed fonts cannot draw is reported, and the fonts a card's text falls back to are in its key.
@Suite("Font coverage")
struct FontCoverageTests {
    /// A card with text no font has (U+E000, private use), and one every font draws.
    static let cards = [
        CardSpec("boxed", image: "coffee.jpg", title: "Coffee", description: "A glyph \u{E000} no font has."),
        CardSpec("plain", image: "astronaut.jpg", title: "Eileen Collins"),
    ]

    @Test("A card with characters no installed font draws is built with a warning naming the card, field and characters")
    func warning() throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(Self.cards)

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            #expect(result.status == 0, result.comment)
            let warnings = result.stderrLines.filter { $0.hasPrefix("warning:") }
            #expect(warnings.count == 1, result.comment)
            let warning = try #require(warnings.first)
            #expect(warning.contains(#"cards[0] ("boxed").description"#) && warning.contains("U+E000"), "\(warning)")
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == ["boxed", "plain"])
        }
    }

    @Test("With --strict such a card fails (exit 1) and the others are built")
    func strict() throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(Self.cards)

            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--strict"])

            #expect(result.exited && result.status == 1, result.comment)
            let error = result.stderrLines.first { $0.hasPrefix("error:") && $0.contains(#"cards[0] ("boxed").description"#) }
            #expect(error?.contains("U+E000") == true, result.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == ["plain"])
        }
    }

    /// A fontconfig configuration of Lato, and of the CJK fonts when `cjk` is true, written into the sandbox.
    static func fontConfiguration(cjk: Bool, in sandbox: Sandbox, as name: String) throws -> String {
        let dirs = ["/usr/share/fonts/truetype/lato"] + (cjk ? ["/usr/share/fonts/opentype/noto"] : [])
        try sandbox.write("""
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>
            \(dirs.map { "  <dir>\($0)</dir>" }.joined(separator: "\n"))
              <cachedir>\(sandbox.root.path)/fontconfig-cache</cachedir>
            </fontconfig>
            """, to: "../\(name)")
        return sandbox.root.appendingPathComponent(name).path
    }

    @Test("A card drawn partly by a fallback font is stale when the font that serves the fallback changes")
    func fallbackFontInKey() throws {
        try Sandbox.with { sandbox in
            // Given a card whose title is partly CJK, built where a CJK font is installed
            try sandbox.writeCatalog([CardSpec("kanji", image: "coffee.jpg", title: "Coffee 漢字")])
            let withCJK = try Self.fontConfiguration(cjk: true, in: sandbox, as: "with-cjk.conf")
            let withoutCJK = try Self.fontConfiguration(cjk: false, in: sandbox, as: "without-cjk.conf")
            let built = try sandbox.run(["build", "catalog.json", "--output", "OUT"], environment: ["FONTCONFIG_FILE": withCJK])
            try #require(built.status == 0, built.comment)
            let same = try sandbox.run(["check", "catalog.json", "--output", "OUT"], environment: ["FONTCONFIG_FILE": withCJK])
            #expect(same.status == 0, same.comment)

            // When the CJK font is gone
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"], environment: ["FONTCONFIG_FILE": withoutCJK])

            // Then the card is stale because of a font
            #expect(check.status == 1, check.comment)
            #expect(check.stdout.contains("stale: kanji: font changed"), check.comment)
        }
    }
}
