import Foundation
import Testing

/// Hostile catalogs through the command line: what is refused before anything is rendered, what fails
/// one card only, and what hard text comes out of a build exactly as it went in.
@Suite("Hostile catalogs")
struct CatalogRejectionTests {
    /// A valid card whose image `copyImage("coffee.jpg")` provides: proves a catalog is refused as a whole.
    static let goodCard = #"{"id": "good", "image": "images/coffee.jpg", "title": "Good", "description": "Fine."}"#

    /// A catalog of `goodCard` and `card`, with the catalog style `style` (JSON text) when given.
    static func catalog(with card: String, style: String = #"{"scales": [1]}"#) -> String {
        #"{"version": 1, "style": \#(style), "cards": [\#(goodCard), \#(card)]}"#
    }

    static func card(id: String = "bad", title: String = #""T""#, extra: String = "") -> String {
        #"{"id": "\#(id)", "image": "images/coffee.jpg", "title": \#(title), "description": "D"\#(extra)}"#
    }

    /// Catalogs that must not validate, and the start of the `error:` line that must say where and what.
    static let invalidCatalogs: [(name: String, bytes: Data, line: String)] = [
        ("id ../x", catalog(with: card(id: "../escape")),
         #"catalog.json: cards[1].id: the id "../escape" starts with '.'; allowed: an id of 1 to 100 characters"#),
        ("id a/b", catalog(with: card(id: "a/b")),
         #"catalog.json: cards[1].id: the id "a/b" contains '/'; allowed: "#),
        ("id .x", catalog(with: card(id: ".x")),
         #"catalog.json: cards[1].id: the id ".x" starts with '.'; allowed: "#),
        ("empty id", catalog(with: card(id: "")),
         "catalog.json: cards[1].id: the id is empty; allowed: "),
        ("101-character id", catalog(with: card(id: String(repeating: "a", count: 101))),
         "catalog.json: cards[1].id: the id is 101 characters long; allowed: "),
        ("non-ASCII id", catalog(with: card(id: "café")),
         #"catalog.json: cards[1].id: the id "café" contains 'é' (U+00E9); allowed: "#),
        ("NUL in a title", catalog(with: card(title: #""a\u0000b""#)),
         #"catalog.json: cards[1] ("bad").title: contains the control character U+0000 (NUL) at character 2; allowed: "#),
        ("wrong type", catalog(with: card(title: "5")),
         #"catalog.json: cards[1] ("bad").title: expected a string of at most 1000 characters"#),
        ("missing field", catalog(with: #"{"id": "bad", "image": "images/coffee.jpg", "title": "T"}"#),
         #"catalog.json: cards[1] ("bad"): missing required key "description"; required keys: "#),
        ("card width 0", catalog(with: card(extra: #", "style": {"cardWidth": 0}"#)),
         #"catalog.json: cards[1] ("bad").style.cardWidth: 0 is out of range; allowed: a number from 1 to 2048."#),
        ("scale 9", catalog(with: card(), style: #"{"scales": [1, 9]}"#),
         "catalog.json: style.scales[1]: 9 is out of range; allowed: an integer from 1 to 4."),
        ("blur radius 10,000", catalog(with: card(), style: #"{"scales": [1], "blur": {"radius": 10000}}"#),
         "catalog.json: style.blur.radius: 10000 is out of range; allowed: a number from 0 to 100."),
    ].map { ($0.0, Data($0.1.utf8), $0.2) } + [
        ("raw NUL byte", Data(catalog(with: card(title: "\"a\u{0}b\"")).utf8),
         "catalog.json:1:194: invalid JSON: unescaped control character U+0000 (NUL) in a string; "),
    ]

    @Test("A hostile catalog exits 2 naming file, path and what is allowed, and writes nothing",
          arguments: invalidCatalogs.indices)
    func refused(index: Int) throws {
        let (name, bytes, line) = Self.invalidCatalogs[index]
        try Sandbox.with { sandbox in
            // Given a catalog with one good card and one bad one
            try sandbox.copyImage("coffee.jpg")
            try sandbox.write(bytes, to: "catalog.json")
            let before = sandbox.listing(".")
            let aroundBefore = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path)

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then it is refused with the problem on its own line
            #expect(result.status == 2, "\(name): \(result)")
            #expect(result.stderrLines.contains { $0.hasPrefix("error: " + line) }, "\(name): no line starting \(line)\n\(result)")
            // and nothing was written: no output, no cache, nothing beside the work folder either
            #expect(sandbox.listing(".") == before, "\(name): files were written")
            #expect(!sandbox.exists("OUT") && !sandbox.exists(".cardbake"), "\(name)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path) == aroundBefore, "\(name)")
        }
    }

    @Test("A catalog of 100,000 cards with one bad card is refused in seconds, naming the card")
    func hundredThousandCards() throws {
        try Sandbox.with { sandbox in
            // Given 100,000 cards, the 99,999th with a title of 1,001 characters
            let cards = (0..<100_000).map { index in
                Self.card(id: "card-\(index)", title: index == 99_998 ? "\"\(String(repeating: "x", count: 1001))\"" : #""Card""#)
            }
            try sandbox.write(#"{"version": 1, "cards": [\#(cards.joined(separator: ",\n"))]}"#, to: "catalog.json")

            // When
            let start = ContinuousClock.now
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            let elapsed = ContinuousClock.now - start

            // Then
            #expect(result.status == 2, result.comment)
            #expect(result.stderrLines == [#"error: catalog.json: cards[99998] ("card-99998").title: the text is 1001 characters long; allowed: a string of at most 1000 characters without control characters."#],
                    result.comment)
            #expect(!sandbox.exists("OUT") && !sandbox.exists(".cardbake"))
            // A bound for a debug build sharing the machine with parallel tests (about 15 s there; a release
            // build needs half a second of CPU); a step quadratic in the number of cards would take hours.
            #expect(elapsed < .seconds(120), "validating took \(elapsed)")
        }
    }

    @Test("A font that does not exist fails the cards that use it, naming style.title; the others are built")
    func unknownFont() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.copyImage("coffee.jpg")
            let noFont = Self.card(id: "no-font", extra: #", "style": {"title": {"font": "No Such Family 123"}}"#)
            try sandbox.write(Self.catalog(with: noFont), to: "catalog.json")

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then
            #expect(result.status == 1, result.comment)
            let line = #"error: catalog.json: cards[1] ("no-font").style.title: no installed font provides the family "No Such Family 123""#
            #expect(result.stderrLines.contains { $0.hasPrefix(line) }, result.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == ["good"])
            #expect(sandbox.fileNames("OUT/cards") == ["good@1x.jpg"])
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.card("no-font")?.status == "failed")
            #expect(report.card("no-font")?.field == "style.title")
        }
    }

    @Test("Markup characters, quotes, emoji, RTL, CJK, combining marks and 100,000 characters are built and kept exactly")
    func hardTextIsBuilt() throws {
        try Sandbox.with { sandbox in
            // Given
            let texts = [
                #"Tom & Jerry <3 > "quoted" 'single' &amp; <b>"#,
                "🦜 👩‍👩‍👧 🏳️‍🌈 🇨🇭",
                "שלום עולם مرحبا بالعالم",
                "漢字かなカナ한국어",
                "e\u{301} a\u{308}\u{304} Z" + String(repeating: "\u{351}\u{36B}", count: 20),
            ]
            let longDescription = String(repeating: "Ab, cd & <ef> \"gh\" 漢字 🦜.\n", count: 4_000)
            var cards = texts.enumerated().map { index, text in
                CardSpec("text-\(index)", image: "coffee.jpg", title: text, description: text + "\n\t" + text)
            }
            cards.append(CardSpec("long", image: "coffee.jpg", title: "Long", description: longDescription))
            try sandbox.writeCatalog(cards)

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then every card is built and the manifest holds its text scalar for scalar
            #expect(result.status == 0, result.comment)
            #expect(longDescription.unicodeScalars.count == 100_000)
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.map(\.id) == cards.map(\.id))
            #expect(manifest.cards.map { Array($0.title.unicodeScalars) } == cards.map { Array($0.title.unicodeScalars) })
            #expect(manifest.cards.map { Array($0.description.unicodeScalars) } == cards.map { Array($0.description.unicodeScalars) })
            #expect(sandbox.fileNames("OUT/cards") == cards.map { "\($0.id)@1x.jpg" }.sorted())
        }
    }
}
