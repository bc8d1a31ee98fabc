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
}
