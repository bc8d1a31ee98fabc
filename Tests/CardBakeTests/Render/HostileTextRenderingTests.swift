import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

/// Catalog text that is hard to lay out — markup characters, quotes, emoji, right-to-left and CJK
/// script, stacked combining marks, a 100,000-character description — goes from the catalog to
/// pixels exactly as written and without a crash. Glyphs the card fonts lack come from fontconfig's
/// fallbacks (or Pango's hex boxes when no installed font has them): either way, ink is drawn.
@Suite("Hostile text rendering", .vips)
struct HostileTextRenderingTests {
    static let texts: [(name: String, text: String)] = [
        ("markup characters and quotes", #"Tom & Jerry <3 > "quoted" 'single' &amp; <b>bold</b>"#),
        ("emoji", "🦜 👩‍👩‍👧 🏳️‍🌈 🇨🇭 ok"),
        ("right-to-left", "שלום עולם مرحبا بالعالم"),
        ("CJK", "漢字かなカナ한국어"),
        ("combining marks", "e\u{301} a\u{308}\u{304} Z" + String(repeating: "\u{351}\u{36B}\u{300}", count: 30)),
    ]

    /// The only card of a catalog with the given texts, validated as a build would.
    static func card(title: String, description: String) throws -> Card {
        let (title, description) = (MessageText.quoted(title, limit: .max), MessageText.quoted(description, limit: .max))
        let card = #"{"id": "hostile", "image": "x.png", "title": \#(title), "description": \#(description)}"#
        return try #require(try CatalogFixture.decode(CatalogFixture.catalog(cards: [card])).cards.first)
    }

    /// Pixels inside `frame` brighter than any the dark test source and its background give: the white text.
    static func textPixels(in bitmap: Bitmap, frame: PixelRect) -> Int {
        var count = 0
        for y in frame.y..<min(frame.y + frame.height, bitmap.height) {
            for x in frame.x..<min(frame.x + frame.width, bitmap.width) where bitmap.brightness(x, y) > 200 {
                count += 1
            }
        }
        return count
    }

    @Test("Hard text loads exactly and renders as title and description", arguments: texts.indices)
    func rendersAsTitleAndDescription(index: Int) throws {
        // Given a card whose title and description are the text, on a dark photo
        let (name, text) = Self.texts[index]
        let card = try Self.card(title: text, description: text)
        let source = try TestImage.solid(width: 400, height: 400, [30, 30, 30])

        // When
        let (bitmap, layout) = try CardRendererTests.render(source, title: card.title, description: card.description, scale: 2)

        // Then the text is kept scalar for scalar, and both labels draw ink in their frames
        #expect(Array(card.title.unicodeScalars) == Array(text.unicodeScalars), "\(name)")
        #expect(Array(card.description.unicodeScalars) == Array(text.unicodeScalars), "\(name)")
        #expect(bitmap.width == 640 && bitmap.height == Int(layout.card.height) * 2, "\(name)")
        #expect(Self.textPixels(in: bitmap, frame: layout.title.pixels(atScale: 2)) > 100, "\(name): the title drew nothing")
        #expect(Self.textPixels(in: bitmap, frame: layout.description.pixels(atScale: 2)) > 100, "\(name): the description drew nothing")
    }

    @Test("A 100,000-character description renders, cut to its frame with an ellipsis")
    func hundredThousandCharacterDescription() throws {
        // Given a description of 100,000 scalars mixing scripts, emoji and line breaks
        let sentence = "Lorem ipsum & <dolor> \"sit\" amet, 漢字 שלום 🦜 e\u{301}.\n"
        let scalars = String(repeating: sentence, count: 100_000 / sentence.unicodeScalars.count + 1).unicodeScalars.prefix(100_000)
        let text = String(String.UnicodeScalarView(scalars))
        let card = try Self.card(title: "Long", description: text)
        let frame = PixelRect(x: 0, y: 0, width: 272, height: 200)

        // When
        let mask = try TextRasterizer.rasterize(card.description, font: TextRasterizerTests.description, size: 16, frame: frame,
                                                mode: .wrapped, padding: 0)
        let source = try TestImage.solid(width: 400, height: 400, [30, 30, 30])
        let (bitmap, layout) = try CardRendererTests.render(source, title: card.title, description: card.description)

        // Then
        #expect(card.description.unicodeScalars.count == 100_000)
        #expect(card.description == text)
        #expect(mask.truncated)
        #expect(Self.textPixels(in: bitmap, frame: layout.description.pixels(atScale: 1)) > 500)
    }
}
