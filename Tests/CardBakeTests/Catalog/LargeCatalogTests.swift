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
}
