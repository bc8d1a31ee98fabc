import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

/// Whole cards from sources at the edges of what a card can show, decoded as a build decodes them.
@Suite("Cards from unusual sources", .vips)
struct UnusualSourceCardTests {
    /// Loads `file` as a build would for a card rendered up to `scale`, then renders it without text.
    static func renderCard(from file: URL, scale: Int) throws -> (bitmap: Bitmap, layout: CardLayout) {
        let source = try SourceImage.load(file, digest: ContentDigest.sha256(try Data(contentsOf: file)),
                                          maxPixels: 100_000_000) { width, height in
            CardLayout(style: CardStyle(), sourceWidth: width, sourceHeight: height).decodeWidth(atScale: scale)
        }
        return try CardRendererTests.render(source.decoded, title: "", scale: scale)
    }

    /// Renders a card from `source`, written as PNG and loaded as a build loads it.
    static func renderCard(from source: VipsImage, scale: Int) throws -> (bitmap: Bitmap, layout: CardLayout) {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("source.png")
            try TestImage.write(source, to: file)
            return try renderCard(from: file, scale: scale)
        }
    }

    static let red: [UInt8] = [220, 30, 30]
    static let green: [UInt8] = [30, 200, 60]
    static let blue: [UInt8] = [30, 40, 220]

    /// Red in the first quarter of `length`, green in the middle half, blue in the last quarter.
    static func quarters(_ position: Int, of length: Int) -> [UInt8] {
        switch position * 4 / length {
        case 0: red
        case 3: blue
        default: green
        }
    }

    /// The transparent fixture hides pure red under alpha 0: the card must show only the renderer's
    /// backdrop, gray 128 blurred and tinted with gray 127.5 at 30 %, so about 128 everywhere.
    @Test("A fully transparent PNG shows the gray backdrop through the feature, and none of its hidden colour")
    func transparent() throws {
        // When
        let (bitmap, layout) = try Self.renderCard(from: SourceDecodingTests.fixtures.appendingPathComponent("transparent.png"),
                                                   scale: 1)

        // Then: above the gradient (which starts at the feature's middle) and in the text area, the backdrop
        let feature = Int(layout.feature.height)
        for (name, y, height) in [("feature", 4, feature / 2 - 8), ("text area", feature + 4, bitmap.height - feature - 8)] {
            let mean = bitmap.mean(x: 4, y: y, width: bitmap.width - 8, height: height)
            #expect(mean.allSatisfy { abs($0 - 128) <= 2 }, "\(name) is \(mean), expected gray 128")
        }
        // and every pixel is neutral: no red shows anywhere
        let tinted = bitmap.allPixels.filter { max(abs($0[0] - $0[1]), abs($0[1] - $0[2])) > 2 }
        #expect(tinted.isEmpty, "\(tinted.count) coloured pixels, e.g. \(tinted.first ?? [])")
    }

    @Test("A 1 × 1 image makes a square feature of its colour on a full card")
    func onePixel() throws {
        // When
        let (bitmap, layout) = try Self.renderCard(from: try TestImage.solid(width: 1, height: 1, [40, 160, 60]), scale: 3)

        // Then W × (W + T) points at 3x
        #expect(layout.feature.height == 320)
        #expect(bitmap.width == 960 && bitmap.height == 620 * 3)
        let top = bitmap.mean(x: 8, y: 8, width: 944, height: 400)
        for (band, expected) in [40.0, 160, 60].enumerated() {
            #expect(abs(top[band] - expected) <= 2, "feature is \(top)")
        }
    }

    @Test("A 1 × 4000 image makes a full card whose feature, cut to maxFeatureHeight, shows the middle of the source")
    func veryTall() throws {
        // Given a source red in its top quarter, green in its middle half and blue in its bottom quarter
        let source = try TestImage.make(width: 1, height: 4000) { _, y in Self.quarters(y, of: 4000) }

        // When
        let (bitmap, layout) = try Self.renderCard(from: source, scale: 3)

        // Then W × (3 W + T) points at 3x: the default cap is 3 × the card width
        #expect(layout.featureScaling == .aspectFill)
        #expect(layout.feature.height == 960)
        #expect(bitmap.width == 960 && bitmap.height == 1260 * 3)
        Self.expectMiddleOnly(bitmap, aboveGradient: 1400)
    }

    /// Expects the feature's top `height` pixels (above its gradient) to be the green middle of a
    /// ``quarters(_:of:)`` source, with neither end squeezed in, and no red or blue anywhere: the
    /// background blurs the same middle.
    static func expectMiddleOnly(_ bitmap: Bitmap, aboveGradient height: Int) {
        let top = bitmap.mean(x: 8, y: 8, width: 944, height: height)
        for (band, expected) in green.enumerated() {
            #expect(abs(top[band] - Double(expected)) <= 2, "feature is \(top), expected the source's middle \(green)")
        }
        let coloured = bitmap.allPixels.filter { max($0[0], $0[2]) > $0[1] + 2 }
        #expect(coloured.isEmpty, "\(coloured.count) red or blue pixels, e.g. \(coloured.first ?? [])")
    }

    @Test("A 4000 × 1 image makes a full card whose feature, raised to minFeatureHeight, shows the middle of the source")
    func veryWide() throws {
        // Given a source red in its left quarter, green in its middle half and blue in its right quarter
        let source = try TestImage.make(width: 4000, height: 1) { x, _ in Self.quarters(x, of: 4000) }

        // When
        let (bitmap, layout) = try Self.renderCard(from: source, scale: 3)

        // Then W × (100 + T) points at 3x, the title inside the feature
        #expect(layout.featureScaling == .aspectFill)
        #expect(layout.feature.height == 100 && layout.title.y == 50)
        #expect(bitmap.width == 960 && bitmap.height == 400 * 3)
        Self.expectMiddleOnly(bitmap, aboveGradient: 140)
    }
}
