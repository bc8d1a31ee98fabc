import Foundation
@testable import CardBake
import Testing
import Vips

/// Whole cards from sources at the edges of what a card can show, decoded as a build decodes them.
@Suite("Cards from unusual sources", .vips)
struct UnusualSourceCardTests {
    /// Loads `file` as a build would for a card rendered up to `scale`, then renders it without text.
    static func renderCard(from file: URL, scale: Int) throws -> (bitmap: Bitmap, layout: CardLayout) {
        let source = try SourceImage.load(file, digest: Digest.sha256(try Data(contentsOf: file)),
                                          maxPixels: 100_000_000, maxWidth: 320 * scale)
        return try CardRendererTests.render(source.decoded, title: "", scale: scale)
    }

    /// Renders a card from a `width × height` source of one colour.
    static func renderCard(width: Int, height: Int, colour: [UInt8], scale: Int) throws -> (bitmap: Bitmap, layout: CardLayout) {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("source.png")
            try TestImage.write(try TestImage.solid(width: width, height: height, colour), to: file)
            return try renderCard(from: file, scale: scale)
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
        let tinted = (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap.pixel($0, y) } }
            .filter { max(abs($0[0] - $0[1]), abs($0[1] - $0[2])) > 2 }
        #expect(tinted.isEmpty, "\(tinted.count) coloured pixels, e.g. \(tinted.first ?? [])")
    }

    @Test("A 1 × 1 image makes a square feature of its colour on a full card")
    func onePixel() throws {
        // When
        let (bitmap, layout) = try Self.renderCard(width: 1, height: 1, colour: [40, 160, 60], scale: 3)

        // Then W × (W + T) points at 3x
        #expect(layout.feature.height == 320)
        #expect(bitmap.width == 960 && bitmap.height == 620 * 3)
        let top = bitmap.mean(x: 8, y: 8, width: 944, height: 400)
        for (band, expected) in [40.0, 160, 60].enumerated() {
            #expect(abs(top[band] - expected) <= 2, "feature is \(top)")
        }
    }

    @Test("A 4000 × 1 image makes a one-point feature on a full card with its colour blurred behind the text")
    func veryWide() throws {
        // When
        let (bitmap, layout) = try Self.renderCard(width: 4000, height: 1, colour: [40, 60, 200], scale: 3)

        // Then W × (ceil(W / 4000) + T) points at 3x
        #expect(layout.feature.height == 1)
        #expect(bitmap.width == 960 && bitmap.height == 301 * 3)
        let text = bitmap.mean(x: 8, y: 100, width: 944, height: 700)
        #expect(text[2] > max(text[0], text[1]) + 60, "text area is \(text), expected the blue source blurred")
    }
}
