import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Background effect", .vips)
struct BackgroundEffectTests {
    let effect = BackgroundEffect(blur: BlurStyle(), cardWidth: 320, cardHeight: 514, maxScale: 3)

    @Test("The blur runs on a reduced copy sized so its sigma is a few pixels")
    func reducedResolution() {
        #expect(abs(effect.resolution - 4.0 / 30) < 1e-12)
        #expect(effect.pixelWidth == 43)
        var sharp = BlurStyle()
        sharp.radius = 0
        #expect(BackgroundEffect(blur: sharp, cardWidth: 320, cardHeight: 514, maxScale: 2).resolution == 2)
        sharp.radius = 0.5
        #expect(BackgroundEffect(blur: sharp, cardWidth: 320, cardHeight: 514, maxScale: 3).resolution == 3)
    }

    @Test("Saturation follows c' = L + s·(c − L), clamped, then the tint is laid over")
    func colourAdjustment() {
        var samples: [Float] = [200, 100, 50, 128, 128, 128, 255, 0, 0]
        effect.adjustColours(&samples)
        func expected(_ rgb: [Float]) -> [Float] {
            let luma = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
            return rgb.map { min(max(luma + 1.8 * ($0 - luma), 0), 255) * 0.7 + 128 * 0.3 }
        }
        let want = expected([200, 100, 50]) + expected([128, 128, 128]) + expected([255, 0, 0])
        for (got, wanted) in zip(samples, want) {
            #expect(abs(got - wanted) < 0.01)
        }
        // A gray stays gray; a saturated red clamps at 255 before the tint.
        #expect(samples[3] == samples[4] && samples[4] == samples[5])
        #expect(abs(samples[6] - (255 * 0.7 + 38.4)) < 0.01)
    }

    @Test("The reduced blur matches a full-resolution blur once scaled up")
    func matchesFullResolution() throws {
        let source = try TestImage.blocks(width: 640, height: 428)
        let reduced = try effect.apply(to: source).scaled(toWidth: 320, height: 514).roundedToUInt8()

        // Reference: aspect-fill at 1x, blur with sigma 30 px on the full-size image, same colour adjustment.
        let fill = max(320.0 / 640, 514.0 / 428)
        let covered = try source.resized(horizontally: fill, vertically: fill)
        let cropped = try covered.cropped(x: (covered.width - 320) / 2, y: (covered.height - 514) / 2, width: 320, height: 514)
        var samples: [Float] = try cropped.castToFloat().blurredExtendingEdges(sigma: 30).pixels()
        effect.adjustColours(&samples)
        let reference = try VipsImage.fromPixels(samples, width: 320, height: 514, bands: 3).roundedToUInt8()

        try expectSimilar(reduced, reference, meanTolerance: 0.6, maxTolerance: 5, name: "background-vs-full-resolution")
    }

    @Test("The background is smooth: no blockiness or seams from scaling up")
    func smooth() throws {
        let source = try TestImage.blocks(width: 640, height: 428)
        let background = try Bitmap(try effect.apply(to: source).scaled(toWidth: 960, height: 1542).roundedToUInt8())
        var steepest = 0.0
        for y in stride(from: 0, to: background.height, by: 7) {
            for x in 1..<background.width {
                steepest = max(steepest, abs(background.brightness(x, y) - background.brightness(x - 1, y)))
            }
        }
        #expect(steepest <= 2, "neighbouring pixels differ by up to \(steepest) levels")
    }

    @Test("Edges extend: a uniform source gives a uniform background, no dark fringe")
    func noFringe() throws {
        let source = try TestImage.solid(width: 300, height: 200, [250, 250, 250])
        let background = try Bitmap(try effect.apply(to: source).scaled(toWidth: 320, height: 514).roundedToUInt8())
        let centre = background.brightness(160, 257)
        for (x, y) in [(0, 0), (319, 0), (0, 513), (319, 513), (160, 0), (0, 257)] {
            #expect(abs(background.brightness(x, y) - centre) <= 1)
        }
    }

    @Test("Transparent parts of a source are laid on gray, not black")
    func transparentSource() throws {
        let source = try TestImage.solid(width: 100, height: 100, [0, 0, 0, 0])
        let background = try Bitmap(try effect.apply(to: source).scaled(toWidth: 320, height: 514).roundedToUInt8())
        #expect(abs(background.brightness(160, 257) - 128) <= 1)
    }

    @Test("The cache form round-trips and rejects anything else")
    func serialization() throws {
        let background = BackgroundImage(width: 2, height: 1, samples: [0, 1.5, 255, 3, 4, 5])
        #expect(BackgroundImage(serialized: background.serialized()) == background)
        #expect(BackgroundImage(serialized: background.serialized().dropLast()) == nil)
        #expect(BackgroundImage(serialized: Data("not a background".utf8)) == nil)
    }
}
