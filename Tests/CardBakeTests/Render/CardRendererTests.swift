import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Card renderer", .vips)
struct CardRendererTests {
    /// Renders `source` as a card with the given text at `scale`, with the default style unless changed,
    /// in `fonts` or else the style's fonts as they resolve.
    static func render(_ source: VipsImage, title: String = "Title", description: String = "",
                       style: CardStyle = CardStyle(), fonts: ResolvedFonts? = nil,
                       scale: Int = 1) throws -> (bitmap: Bitmap, layout: CardLayout) {
        let card = Card(id: "test", image: URL(fileURLWithPath: "/dev/null"), title: title,
                        description: description, style: style, index: 0)
        let layout = CardLayout(style: style, sourceWidth: source.width, sourceHeight: source.height)
        let background = try BackgroundEffect(blur: style.blur, cardWidth: layout.card.width,
                                              cardHeight: layout.card.height, maxScale: scale).apply(to: source)
        let renderer = CardRenderer(card: card, layout: layout, fonts: try fonts ?? FontResolver().fonts(for: style))
        let image = try renderer.render(source: source, background: background, scale: scale)
        return (try Bitmap(image), layout)
    }

    @Test("Each scale has the card's size in pixels, opaque 8-bit RGB", arguments: [1, 2, 3])
    func size(scale: Int) throws {
        let source = try TestImage.blocks(width: 640, height: 427)
        let (bitmap, layout) = try Self.render(source, scale: scale)
        #expect(bitmap.width == 320 * scale)
        #expect(bitmap.height == Int(layout.card.height) * scale)
        #expect(bitmap.bands == 3)
    }

    /// Mean difference per sample between a card rendered at 2x and `expected` (the feature's pixels) over
    /// the top 40 % of the feature, inside the 2 px border: above the gradient, where the feature shows as is.
    static func featureDifference(_ bitmap: Bitmap, _ expected: Bitmap) -> Double {
        var total = 0.0, count = 0.0
        for y in 4..<(expected.height * 2 / 5) {
            for x in 4..<(expected.width - 4) {
                for band in 0..<3 {
                    total += Double(abs(bitmap.pixel(x, y)[band] - expected.pixel(x, y)[band]))
                    count += 1
                }
            }
        }
        return total / count
    }

    @Test("Above the gradient, the feature is the source resized")
    func featureMatchesSource() throws {
        let source = try TestImage.blocks(width: 640, height: 428)
        let (bitmap, layout) = try Self.render(source, title: "", scale: 2)
        let expected = try Bitmap(try source.resized(toWidth: 640, height: Int(layout.feature.height) * 2))
        let difference = Self.featureDifference(bitmap, expected)
        #expect(difference < 1.0, "mean difference \(difference)")
    }

    @Test("Above the gradient, a feature cut to maxFeatureHeight is the source's centre resized")
    func cappedFeatureIsSourceCentre() throws {
        // Given a 200 × 1000 source, which fitted would be 1600 points tall, and a cap of 320 points
        let source = try TestImage.blocks(width: 200, height: 1000)
        var style = CardStyle()
        style.maxFeatureHeight = 320

        // When
        let (bitmap, layout) = try Self.render(source, title: "", style: style, scale: 2)

        // Then the feature is 320 × 320 points showing the source's square middle, rows 400 to 599
        #expect(layout.feature.height == 320)
        let expected = try Bitmap(try source.cropped(x: 0, y: 400, width: 200, height: 200).resized(toWidth: 640, height: 640))
        let difference = Self.featureDifference(bitmap, expected)
        #expect(difference < 1.0, "mean difference \(difference)")
    }

    @Test("The gradient darkens the feature's lower half towards black at its bottom edge")
    func gradient() throws {
        let source = try TestImage.solid(width: 400, height: 400, [200, 200, 200])
        let (bitmap, layout) = try Self.render(source, title: "")
        let feature = Int(layout.feature.height)
        let x = 10
        #expect(abs(bitmap.brightness(x, feature / 4) - 200) <= 1, "no darkening above the middle")
        var previous = bitmap.brightness(x, feature / 2)
        for y in stride(from: feature / 2 + 4, to: feature, by: 4) {
            let value = bitmap.brightness(x, y)
            #expect(value < previous, "row \(y) is not darker than the row above")
            previous = value
        }
        #expect(bitmap.brightness(x, feature - 1) < 6, "nearly black at the bottom edge")
    }

    @Test("The title draws white pixels inside its frame and nowhere else in the feature")
    func titlePixels() throws {
        let source = try TestImage.solid(width: 400, height: 400, [30, 30, 30])
        let (bitmap, layout) = try Self.render(source, title: "Keel-billed Toucan")
        let frame = layout.title.pixels(atScale: 1)
        var inside = 0, outside = 0
        for y in 0..<Int(layout.feature.height) {
            for x in 0..<bitmap.width where bitmap.brightness(x, y) > 240 {
                if x >= frame.x && x < frame.x + frame.width && y >= frame.y && y < frame.y + frame.height {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        #expect(inside > 300, "only \(inside) white pixels in the title frame")
        #expect(outside == 0, "\(outside) white pixels outside the title frame")
    }

    @Test("A source with transparency shows the blurred background, not black")
    func transparency() throws {
        let source = try TestImage.solid(width: 200, height: 200, [0, 0, 0, 0])
        let (bitmap, _) = try Self.render(source, title: "")
        #expect(abs(bitmap.brightness(100, 20) - 128) <= 2)
    }

    @Test("The border is a faint light hairline inside the card's edge")
    func border() throws {
        let source = try TestImage.solid(width: 400, height: 400, [0, 0, 0])
        let (bitmap, layout) = try Self.render(source, title: "", scale: 2)
        let y = Int(layout.feature.height) / 4 * 2
        // #D9D9D9 at 20 % over black is about 43; two pixels wide at 2x; black just inside.
        #expect(abs(bitmap.brightness(0, y) - 43.4) <= 1.5)
        #expect(abs(bitmap.brightness(1, y) - 43.4) <= 1.5)
        #expect(bitmap.brightness(2, y) < 1)
        #expect(abs(bitmap.brightness(bitmap.width - 1, y) - 43.4) <= 1.5)
    }

    @Test("Rendering the same card twice gives the same pixels")
    func deterministic() throws {
        let source = try TestImage.blocks(width: 300, height: 200)
        let first = try Self.render(source, title: "Same", description: "Same text", scale: 2).bitmap
        let second = try Self.render(source, title: "Same", description: "Same text", scale: 2).bitmap
        #expect(first.samples == second.samples)
    }
}
