import CardBakeCatalog
import Foundation
import Testing

/// A catalog made in code is validated by the rules, and with the messages, of a catalog file.
@Suite("Catalogs made in code")
struct CatalogDraftTests {
    /// A style with a value changed in every block, colours on the catalog's 8-bit alpha grid.
    static var customStyle: CardStyle {
        var style = CardStyle()
        style.cardWidth = 300
        style.maxFeatureHeight = 700
        style.scales = [2, 3]
        style.output.kind = .jpeg
        style.output.quality = 70
        style.blur.radius = 12
        style.blur.tint = CardColor(red: 10, green: 20, blue: 30, alpha: 51.0 / 255)
        style.title.size = 28
        style.title.shadow = nil
        style.description.color = CardColor(red: 200, green: 200, blue: 200)
        style.description.shadow?.offsetX = 2
        style.border.width = 0
        return style
    }

    static func draft(style: CardStyle = customStyle) -> CatalogDraft {
        var cardStyle = style
        cardStyle.title.font = "DejaVu Sans"
        cardStyle.output.pngFilter = .paeth
        return CatalogDraft(file: CatalogFixture.file, style: style, cards: [
            CardDraft(id: "toucan", image: URL(fileURLWithPath: "/photos/toucan.png"), title: "Toucan", description: "A bird."),
            CardDraft(id: "parrot", image: URL(fileURLWithPath: "/photos/parrot.png"), title: "Parrot",
                      description: "Another.", style: cardStyle),
        ])
    }

    @Test("Valid values come back as the catalog, every style value kept exactly")
    func validValues() throws {
        let draft = Self.draft()
        let catalog = try draft.validated()
        #expect(catalog.style == draft.style)
        #expect(catalog.cards.map(\.id) == ["toucan", "parrot"])
        #expect(catalog.cards[0].style == draft.style)
        #expect(catalog.cards[1].style == draft.cards[1].style)
        #expect(catalog.cards[1].image.path == "/photos/parrot.png" && catalog.cards[1].index == 1)
    }

    @Test("A card's style that removes the catalog's font file, feature height limit and quality keeps them removed")
    func removedValues() throws {
        var style = Self.customStyle
        style.title.fontFile = URL(fileURLWithPath: "/fonts/Title.ttf")
        var cardStyle = style
        cardStyle.title.fontFile = nil
        cardStyle.maxFeatureHeight = nil
        cardStyle.output.quality = nil
        let draft = CatalogDraft(file: CatalogFixture.file, style: style, cards: [
            CardDraft(id: "toucan", image: URL(fileURLWithPath: "/photos/toucan.png"), title: "Toucan",
                      description: "A bird.", style: cardStyle),
        ])
        let card = try #require(try draft.validated().cards.first)
        #expect(card.style.output.quality == nil && card.style.output.picksQualityPerImage)
        #expect(card.style.title.fontFile == nil)
        #expect(card.style.maxFeatureHeight == nil)
        #expect(card.style == cardStyle)
    }

    @Test("Overrides apply over values made in code as over a file's")
    func overrides() throws {
        let catalog = try Self.draft().validated(overrides: StyleOverrides(scales: [1], format: .webp))
        #expect(catalog.cards.allSatisfy { $0.style.scales == [1] && $0.style.output.kind == .webp })
    }

    @Test("Bad values are refused with the problems a catalog file would have, at the same paths")
    func badValues() throws {
        var draft = Self.draft()
        draft.style.cardWidth = 0
        draft.cards[1].id = "toucan"
        draft.cards[0].title = "Tou\u{07}can"
        let error = try #require(throws: CatalogError.self) { try draft.validated() }
        guard case .invalid(_, let problems) = error else { Issue.record("\(error)"); return }
        #expect(problems.map(\.path) == ["style.cardWidth", "cards[0].title", "cards[1].id"])
        #expect(problems[0].message.contains("allowed: a number from 1 to 2048"))
    }

    @Test("A colour alpha a catalog cannot hold is a problem of the style that has it, not rounded silently")
    func alphaOffTheGrid() throws {
        var draft = Self.draft()
        draft.cards[1].style?.border.color.alpha = 0.3
        let error = try #require(throws: CatalogError.self) { try draft.validated() }
        guard case .invalid(_, let problems) = error else { Issue.record("\(error)"); return }
        #expect(problems.map(\.description) == [#"cards[1] ("parrot").style: a value a catalog cannot hold: a colour's alpha must be a multiple of 1/255."#])
    }
}
