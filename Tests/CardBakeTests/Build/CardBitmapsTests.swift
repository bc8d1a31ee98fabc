import Foundation
@testable import CardBake
import CardBakeCatalog
import CardBakeManifest
import Testing

@Suite("Rendering one card in memory", .vips)
struct CardBitmapsTests {
    @Test("A card rendered in memory has the bytes, sizes and placeholder a build writes for it")
    func sameAsABuild() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let manifest = try #require(fixture.manifest)
        let catalog = try CatalogLoader.load(from: fixture.catalog)

        for (card, entry) in zip(catalog.cards, manifest.cards) {
            let rendered = try CardBitmaps(rendering: card)
            #expect(rendered.width == entry.size.width && rendered.height == entry.size.height)
            #expect(rendered.placeholder == entry.placeholder)
            #expect(rendered.images.keys.sorted() == card.style.scales)
            for (scale, bitmap) in rendered.images {
                let image = try #require(entry.images[CardManifest.scaleName(scale)])
                #expect(bitmap.width == image.width && bitmap.height == image.height)
                #expect(bitmap.data == (try Data(contentsOf: fixture.output.appendingPathComponent(image.file))))
            }
        }
    }

    @Test("A card whose image is missing fails naming its image field")
    func missingImage() throws {
        let fixture = try BuilderTests.fixture()
        try fixture.writeCatalog()
        var card = try CatalogLoader.load(from: fixture.catalog).cards[0]
        card.image = fixture.folder.file("images/none.png")
        let failure = try #require(throws: CardFailure.self) { try CardBitmaps(rendering: card) }
        #expect(failure.field == "image" && failure.cardID == card.id)
    }

    @Test("Text with a NUL is refused naming its field, as the catalog refuses it, rather than cut short",
          arguments: ["title", "description"])
    func nulInText(field: String) throws {
        let fixture = try BuilderTests.fixture()
        try fixture.writeCatalog()
        var card = try CatalogLoader.load(from: fixture.catalog).cards[0]
        if field == "title" { card.title = "Before\u{0}after" } else { card.description = "Before\u{0}after" }

        let failure = try #require(throws: CardFailure.self) { try CardBitmaps(rendering: card) }
        #expect(failure.field == field && failure.cardID == card.id)
        #expect(failure.reason.contains("control character U+0000"), "\(failure.reason)")
    }

    @Test("A catalog made in code refuses a NUL in text with the catalog file's message")
    func nulInDraft() throws {
        let fixture = try BuilderTests.fixture()
        var draft = CatalogDraft(file: fixture.catalog)
        draft.cards.append(CardDraft(id: "toucan", image: fixture.folder.file("images/alpha.png"),
                                     title: "Before\u{0}after", description: ""))
        let error = try #require(throws: CatalogError.self) { try draft.validated() }
        #expect("\(error)".contains(#"cards[0] ("toucan").title"#) && "\(error)".contains("U+0000"), "\(error)")
    }
}
