import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// A catalog of realistic size must validate completely; the time it takes is measured separately in release builds.
@Suite struct LargeCatalogTests {
    static let cardCount = 100_000

    /// About 30 MB: every card has a description of a few hundred bytes with escapes and non-ASCII text,
    /// and every tenth card a style of its own.
    static func catalogJSON(badCard: Int? = nil) -> String {
        let description = String(repeating: #"A toucan \"Ramphastos\" — 漢字, émoji 🦜. "#, count: 5)
        var json = #"{"version": 1, "style": {"cardWidth": 300, "scales": [2, 1]}, "cards": ["#
        json.reserveCapacity(cardCount * 320)
        for index in 0..<cardCount {
            json += index == 0 ? "\n" : ",\n"
            let width = index == badCard ? 0 : 250
            let style = index % 10 == 0 ? #", "style": {"cardWidth": \#(width), "title": {"size": 24, "shadow": null}}"# : ""
            json += #"{"id": "card-\#(index)", "image": "images/card-\#(index).png", "title": "Card \#(index)", "description": "\#(description)"\#(style)}"#
        }
        return json + "\n]}\n"
    }

    @Test func hundredThousandCardsValidate() throws {
        let catalog = try CatalogFixture.decode(Self.catalogJSON())
        #expect(catalog.cards.count == Self.cardCount)
        #expect(catalog.style.scales == [1, 2])
        let last = try #require(catalog.cards.last)
        #expect(last.id == "card-99999")
        #expect(last.index == 99_999)
        #expect(last.image.path == "/catalogs/Input/images/card-99999.png")
        #expect(last.description.hasPrefix(#"A toucan "Ramphastos" — 漢字, émoji 🦜. "#))
        #expect(catalog.cards[99_990].style.cardWidth == 250)
        #expect(catalog.cards[99_990].style.title.shadow == nil)
        #expect(last.style == catalog.style)
        #expect(Set(catalog.cards.map(\.id)).count == Self.cardCount)
    }

    @Test func oneBadCardAmongAHundredThousandIsFound() {
        #expect(CatalogFixture.problems(Self.catalogJSON(badCard: 77_770)) == [
            CatalogProblem(path: "cards[77770].style.cardWidth", cardID: "card-77770",
                           message: "0 is out of range; allowed: a number from 1 to 2048."),
        ])
    }

    @Test("Cards read a share at a time on several threads give the problems and cards of one reading in order")
    func sharesReadInParallelMatchOneReading() throws {
        var cards = (0..<2_000).map { #"{"id": "card-\#($0)", "image": "images/\#($0).png", "title": "Card \#($0)", "description": "."}"# }
        cards[2] = #"{"id": "Card 2", "image": "images/2.png", "title": "A\u0007", "description": "."}"#
        cards[700] = #"{"id": "card-700", "image": "", "title": "Card 700", "description": "."}"#
        cards[1_200] = #""card-1200""#
        cards[1_500] = #"{"id": "card-10", "image": "images/1500.png", "title": "Card 1500", "description": "."}"#
        cards[1_800] = #"{"id": "card-1800", "title": "Card 1800", "description": ".", "colour": "red"}"#
        cards[1_999] = #"{"id": 1999, "image": "images/1999.png", "title": "Card 1999", "description": "."}"#
        let root = try JSONDocument.parse(Data(("[" + cards.joined(separator: ",\n") + "]").utf8))

        func read(shareSize: Int) -> (cards: [Card], problems: [CatalogProblem]) {
            let reader = SchemaReader(log: ProblemLog(), paths: CatalogPathResolver(catalogFile: URL(filePath: "/c/catalog.json")))
            let nodes = reader.array(SchemaReader.Node(value: root, path: .root), expected: "cards")!
            let decoded = CardDecoder(reader: reader, catalogStyle: CardStyle(), overrides: StyleOverrides(),
                                      shareSize: shareSize).decode(nodes)
            return (decoded, reader.log.problemsInDocumentOrder)
        }
        let inShares = read(shareSize: 300)
        let inOrder = read(shareSize: .max)
        #expect(inShares.problems == inOrder.problems)
        #expect(inShares.cards == inOrder.cards)
        #expect(inShares.cards.count == 2_000 - 6)
        #expect(inShares.problems.map(\.path) == ["[2].id", "[2].title", "[700].image", "[1200]", "[1500].id", "[1800]",
                                                   "[1800].colour", "[1999].id"])
        #expect(inShares.problems[4] == CatalogProblem(
            path: "[1500].id", cardID: "card-10",
            message: #"duplicate id "card-10"; first used by cards[10]; each card needs its own id."#))
    }

    @Test("Cards of the same image share one string of its path, across shares")
    func cardsOfOneImageShareItsPath() throws {
        let cards = (0..<1_000).map { #"{"id": "card-\#($0)", "image": "images/photo-\#($0 % 3).jpeg", "title": "Card", "description": "."}"# }
        let root = try JSONDocument.parse(Data(("[" + cards.joined(separator: ",\n") + "]").utf8))
        let reader = SchemaReader(log: ProblemLog(), paths: CatalogPathResolver(catalogFile: URL(filePath: "/c/catalog.json")))
        let nodes = reader.array(SchemaReader.Node(value: root, path: .root), expected: "cards")!
        let decoded = CardDecoder(reader: reader, catalogStyle: CardStyle(), overrides: StyleOverrides(), shareSize: 300)
            .decode(nodes)
        #expect(decoded.map(\.imagePath) == (0..<1_000).map { "/c/images/photo-\($0 % 3).jpeg" })
        #expect(Set(decoded.map { storage(of: $0.imagePath) }).count == 3)
    }

    @Test("A decoded card's texts wait in a spool file, read back as written; setting one keeps the other")
    func decodedTextsAreSpooled() throws {
        let texts = (0..<1_200).map { (title: "Card \($0) — 漢字 🦜", description: String(repeating: "A \"toucan\" é. ", count: $0 % 7 + 1)) }
        let cards = texts.enumerated().map { index, text in
            #"{"id": "card-\#(index)", "image": "a.png", "title": "\#(text.title)", "description": "\#(text.description.replacingOccurrences(of: "\"", with: "\\\""))"}"#
        }
        let root = try JSONDocument.parse(Data(("[" + cards.joined(separator: ",\n") + "]").utf8))
        let reader = SchemaReader(log: ProblemLog(), paths: CatalogPathResolver(catalogFile: URL(filePath: "/c/catalog.json")))
        let nodes = reader.array(SchemaReader.Node(value: root, path: .root), expected: "cards")!
        var decoded = CardDecoder(reader: reader, catalogStyle: CardStyle(), overrides: StyleOverrides(), shareSize: 500)
            .decode(nodes)
        #expect(reader.log.problemsInDocumentOrder.isEmpty)
        #expect(decoded.allSatisfy { if case .spooled = $0.texts { true } else { false } })
        #expect(decoded.map { ($0.title, $0.description) }.elementsEqual(texts) { $0 == $1 })

        let held = decoded[5].holdingTexts
        #expect(held == decoded[5])
        #expect({ if case .held = held.texts { true } else { false } }())

        decoded[700].title = "Renamed"
        decoded[701].description = "Described again."
        #expect((decoded[700].title, decoded[700].description) == ("Renamed", texts[700].description))
        #expect((decoded[701].title, decoded[701].description) == (texts[701].title, "Described again."))
        #expect(decoded[702] == Card(id: "card-702", image: URL(filePath: "/c/a.png"), title: texts[702].title,
                                     description: texts[702].description, style: CardStyle(), index: 702))
    }

    /// Where a native string's bytes are: equal for strings that share their storage.
    private func storage(of text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
