import Foundation
import Testing

/// `--scales` and `--format` through the command line: validated with the catalog, by the catalog's
/// rules, before anything is rendered.
@Suite("Overrides validated with the catalog")
struct OverrideRejectionTests {
    /// A good card and one that fits PNG at scales 1 and 3 but, at 18,900 pixels, not WebP.
    static let catalogWithATallCard = CatalogRejectionTests.catalog(
        with: CatalogRejectionTests.card(id: "tall", extra: #", "style": {"maxFeatureHeight": 6000}"#),
        style: #"{"scales": [1, 3]}"#)

    @Test("--format webp on a card too tall for WebP exits 2 naming the card and the limit, and writes nothing",
          arguments: ["build", "check"])
    func cardTooTallForTheFormat(command: String) throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.copyImage("coffee.jpg")
            try sandbox.write(Self.catalogWithATallCard, to: "catalog.json")
            let before = sandbox.listing(".")

            // When
            let result = try sandbox.run([command, "catalog.json", "--output", "OUT", "--format", "webp"])

            // Then
            #expect(result.status == 2, result.comment)
            let line = #"error: catalog.json: cards[1] ("tall").style: the tallest card, a feature of 6000 points"#
                + #" (maxFeatureHeight) over a text area of 300 (textAreaHeight), is 18900 pixels tall at scale 3,"#
                + #" over the 16383 pixels format "webp" (from --format) allows;"#
            #expect(result.stderrLines.contains { $0.hasPrefix(line) }, result.comment)
            #expect(sandbox.listing(".") == before, "files were written")
            #expect(!sandbox.exists("OUT") && !sandbox.exists(".cardbake"))
        }
    }

    @Test("--scales with a repeated scale exits 2 in the words of the catalog's rule, and writes nothing")
    func repeatedScale() throws {
        try Sandbox.with { sandbox in
            // Given a valid catalog
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg")])
            let before = sandbox.listing(".")

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--scales", "1,2,1"])

            // Then
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("--scales[2]: scale 1 is repeated (first at --scales[0]); allowed: a non-empty"
                                           + " comma-separated list of different integers from 1 to 4."), result.comment)
            #expect(sandbox.listing(".") == before, "files were written")
        }
    }
}
