import CardBake
import CardBakeCatalog
import Foundation
import Testing
import Vips

/// HEIC and AVIF cards: close to the PNG render, opaque, without metadata, the same bytes every time.
@Suite("HEIC and AVIF output", .vips)
struct HEIFOutputTests {
    /// A demo card at 1x: a photo, text and blur, as the formats table measures.
    static func card(_ kind: OutputFormat.Kind) throws -> Card {
        var card = try #require(try CatalogLoader.load(from: PlaceholderColorTests.demoCatalog).cards.first)
        card.style.scales = [1]
        card.style.output.kind = kind
        return card
    }

    @Test("A card decodes back to its PNG render within 30 dB PSNR, opaque, with no metadata", arguments: [OutputFormat.Kind.heic, .avif])
    func closeToPNG(_ kind: OutputFormat.Kind) throws {
        let png = try Bitmap(encoded: try #require(try CardBitmaps(rendering: Self.card(.png)).images[1]).data)
        let encoded = try #require(try CardBitmaps(rendering: Self.card(kind)).images[1]).data
        let decoded = try Bitmap(encoded: encoded)
        #expect(decoded.bands == 3, "opaque: no alpha channel")
        #expect(decoded.width == png.width && decoded.height == png.height)
        let meanSquare = zip(decoded.samples, png.samples).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
            / Double(png.samples.count)
        let psnr = 10 * log10(255 * 255 / meanSquare)
        #expect(psnr > 30, "\(kind): PSNR \(psnr) dB against the PNG render")
        #expect(ImageContainer.metadata(in: encoded) == [], "\(kind)")
    }

    @Test("Encoding the same card twice gives the same bytes, whatever the threads per pipeline", arguments: [OutputFormat.Kind.heic, .avif])
    func deterministic(_ kind: OutputFormat.Kind) throws {
        let card = try Self.card(kind)
        Vips.setThreadsPerPipeline(1)
        let first = try #require(try CardBitmaps(rendering: card).images[1]).data
        Vips.setThreadsPerPipeline(4)
        let second = try #require(try CardBitmaps(rendering: card).images[1]).data
        #expect(first == second)
    }

    @Test("The catalog refuses a HEIC or AVIF card taller than libheif decodes", arguments: [OutputFormat.Kind.heic, .avif])
    func maxDimension(_ kind: OutputFormat.Kind) throws {
        var draft = CatalogDraft(file: URL(fileURLWithPath: "/tmp/tall.json"))
        draft.style.output.kind = kind
        draft.style.maxFeatureHeight = 8192
        draft.style.scales = [2]
        draft.cards.append(CardDraft(id: "tall", image: URL(fileURLWithPath: "/tmp/tall.jpg"), title: "", description: ""))
        #expect(throws: CatalogError.self) { try draft.validated() }
        draft.style.scales = [1]
        #expect(throws: Never.self) { try draft.validated() }
    }
}
