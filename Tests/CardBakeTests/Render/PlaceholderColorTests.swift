import Foundation
@testable import CardBake
import CardBakeCatalog
import CardBakeKit
@testable import CardBakeRender
import Testing
import Vips

/// The Oklab maths the placeholder is measured with.
@Suite("Oklab")
struct OklabTests {
    @Test("sRGB white, black and primaries have their published Oklab coordinates",
          arguments: [([255, 255, 255], [1, 0, 0]), ([0, 0, 0], [0, 0, 0]),
                      ([255, 0, 0], [0.627955, 0.224863, 0.125846]), ([0, 255, 0], [0.866440, -0.233888, 0.179498]),
                      ([0, 0, 255], [0.452014, -0.032457, -0.311528])] as [([UInt8], [Double])])
    func referenceColours(_ srgb: [UInt8], _ expected: [Double]) {
        let colour = Oklab(red: srgb[0], green: srgb[1], blue: srgb[2])
        let error = zip([colour.l, colour.a, colour.b], expected).map { abs($0 - $1) }.max() ?? 0
        #expect(error < 1e-4, "\(srgb): \(colour)")
    }

    @Test("Every 8-bit sRGB colour on a 17-step grid comes back from Oklab unchanged")
    func roundTrip() {
        let steps = stride(from: 0, through: 255, by: 15).map(UInt8.init)
        for red in steps {
            for green in steps {
                for blue in steps {
                    let colour = CardColor(red: red, green: green, blue: blue)
                    #expect(Oklab(colour).sRGB == colour)
                }
            }
        }
    }

    @Test("Cube roots are within 4 ulp of libm's, and 0 for 0")
    func cubeRoots() {
        // Every linear-light mix a pixel gives is 0 or within 1e-5...1; a margin on both sides.
        for x in (1..<40_000).map({ Double($0) / 32_000 }) + [1e-12, 1e-9, 1e-6, 2] {
            #expect(abs(Oklab.cubeRoot(x) - cbrt(x)) <= 4 * cbrt(x).ulp, "cube root of \(x)")
        }
        #expect(Oklab.cubeRoot(0) == 0)
    }

    @Test("Distance is zero to itself, symmetric, and ΔE between black and white is 1")
    func distance() {
        let (black, white, red) = (Oklab(.black), Oklab(.white), Oklab(red: 255, green: 0, blue: 0))
        #expect(black.distance(to: black) == 0)
        #expect(red.distance(to: white) == white.distance(to: red))
        #expect(abs(black.distance(to: white) - 1) < 1e-6)
    }

    @Test("A colour outside sRGB is clipped to its gamut")
    func clipped() {
        #expect(Oklab(l: 0.7, a: 0.4, b: 0).sRGB.green == 0)
        #expect(Oklab(l: 1.2, a: 0, b: 0).sRGB == .white)
    }
}

@Suite("Placeholder colour", .vips)
struct PlaceholderColorTests {
    static let demoCatalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Input/catalog.json")

    /// The mean of `bitmap`'s pixels in Oklab.
    static func meanColour(of bitmap: Bitmap) -> Oklab {
        let colours = bitmap.allPixels.map { Oklab(red: UInt8($0[0]), green: UInt8($0[1]), blue: UInt8($0[2])) }
        let count = Double(colours.count)
        return Oklab(l: colours.map(\.l).reduce(0, +) / count, a: colours.map(\.a).reduce(0, +) / count,
                     b: colours.map(\.b).reduce(0, +) / count)
    }

    @Test("One colour is its own placeholder")
    func solid() {
        let colour = CardColor(red: 200, green: 90, blue: 30)
        #expect(PlaceholderColor.of(Array(repeating: [colour.red, colour.green, colour.blue], count: 50).flatMap { $0 }) == colour)
    }

    @Test("Half black, half white averages to Oklab's middle grey, darker than the mean of the samples")
    func perceptualMean() {
        let samples = [UInt8](repeating: 0, count: 30) + [UInt8](repeating: 255, count: 30)
        // Oklab L 0.5 is linear light 0.125, sRGB 0.389: 99.
        #expect(PlaceholderColor.of(samples) == CardColor(red: 99, green: 99, blue: 99))
    }

    /// The mean of each of `bitmap`'s first three bands, from 0 to 1: the average ThumbHash keeps.
    static func meanRGB(of bitmap: Bitmap) -> [Double] {
        (0..<3).map { band in bitmap.mean(x: 0, y: 0, width: bitmap.width, height: bitmap.height)[band] / 255 }
    }

    /// ΔE 0.02 is about a just-noticeable difference; 0.05 leaves room for the 8-bit rounding of
    /// the placeholder and nothing like the distance to a colour that is not the card's. ThumbHash
    /// keeps its average in 6 bits a channel (steps of 1.6 %), so its colour may be 4 % off the
    /// card's mean, and its aspect ratio is a ratio of integers up to 7 (half a seventh off at most).
    @Test("Each demo card's placeholder colour, ThumbHash and data URL show its 1x bitmap's mean colour and shape")
    func demoCards() throws {
        let catalog = try CatalogLoader.load(from: Self.demoCatalog)
        #expect(catalog.cards.count >= 10)
        for var card in catalog.cards {
            card.style.scales = [1]
            let rendered = try CardBitmaps(rendering: card)
            let bitmap = try Bitmap(encoded: try #require(rendered.images[1]).data)
            let placeholder = try #require(CardColor(hex: rendered.placeholder.color))
            let mean = Self.meanColour(of: bitmap)
            let distance = Oklab(placeholder).distance(to: mean)
            #expect(distance < 0.05, "\(card.id): placeholder \(placeholder), mean \(mean.sRGB), ΔE \(distance)")

            let cardMean = Self.meanRGB(of: bitmap)
            let hash = try #require(rendered.placeholder.decodedThumbHash, "\(card.id): \(rendered.placeholder.thumbhash)")
            let average = hash.averageColor
            let decoded = hash.image()
            let decodedMean = (0..<3).map { band in
                Double(stride(from: band, to: decoded.rgba.count, by: 4).reduce(0) { $0 + Int(decoded.rgba[$1]) })
                    / Double(decoded.width * decoded.height) / 255
            }
            for (found, name) in [([average.red, average.green, average.blue], "average"), (decodedMean, "decoded")] {
                #expect(zip(found, cardMean).allSatisfy { abs($0 - $1) < 0.04 }, "\(card.id): \(name) \(found), card \(cardMean)")
            }
            #expect(average.alpha == 1)
            let aspect = Double(bitmap.width) / Double(bitmap.height)
            #expect(abs(hash.approximateAspectRatio - aspect) <= 0.5 / 7 + 1e-9, "\(card.id): \(hash.approximateAspectRatio)")
            #expect(abs(Double(decoded.width) / Double(decoded.height) - aspect) < 0.1)

            let prefix = "data:image/webp;base64,"
            #expect(rendered.placeholder.dataURL.hasPrefix(prefix))
            let webp = try #require(Data(base64Encoded: String(rendered.placeholder.dataURL.dropFirst(prefix.count))))
            #expect(webp.count < 400, "\(card.id): a data URL of \(webp.count) bytes")
            let tiny = try Bitmap(encoded: webp)
            #expect(tiny.width == CardPlaceholder.dataURLWidth)
            #expect(abs(Double(tiny.width) / Double(tiny.height) - aspect) < 0.05)
            #expect(zip(Self.meanRGB(of: tiny), cardMean).allSatisfy { abs($0 - $1) < 0.04 }, "\(card.id): data URL")
        }
    }

    @Test("A card whose facts the cache lacks but whose bitmaps it holds gets the same placeholder, nothing re-encoded")
    func factsWithoutBitmaps() async throws {
        let fixture = try BuilderTests.fixture()
        fixture.style = ["scales": [1, 2, 3]]
        try await fixture.build()
        let first = try #require(fixture.manifest)

        // Fewer scales make a new card key, so no facts, while the 1x and 3x bitmaps are cached (the
        // largest scale, which the source is decoded for, is still 3x).
        fixture.style = ["scales": [1, 3]]
        let report = try await fixture.build()
        #expect(report.cards.allSatisfy { $0.stages?.images == ["1x": .cached, "3x": .cached] })
        let second = try #require(fixture.manifest)
        #expect(second.cards.map(\.placeholder) == first.cards.map(\.placeholder))
    }
}
