import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Card canvas", .vips)
struct CardCanvasTests {
    /// A 4 × 2 canvas over a uniform background of `colour`.
    func canvas(_ colour: [Float]) -> CardCanvas {
        CardCanvas(background: BackgroundImage(width: 1, height: 1, samples: colour), width: 4, height: 2)
    }

    @Test("An RGBA layer is laid source-over on its own pixels only, clipped at the edges")
    func blendsRGBA() throws {
        var canvas = canvas([100, 100, 100])
        let rgba: [Float] = [200, 0, 50, 51]
        let layer = try VipsImage.fromPixels(Array([[Float]](repeating: rgba, count: 4).joined()),
                                             width: 2, height: 2, bands: 4)
        try canvas.draw(CompositeLayer(image: layer, x: 3, y: 1))

        let bitmap = try Bitmap(canvas.bitmap())
        // alpha 51/255 = 0.2: 200·0.2 + 100·0.8 = 120; 0 → 80; 50 → 90.
        #expect(bitmap.pixel(3, 1) == [120, 80, 90])
        #expect(bitmap.pixel(2, 1) == [100, 100, 100] && bitmap.pixel(3, 0) == [100, 100, 100])
    }

    @Test("An RGB layer covers what it overlaps")
    func copiesRGB() throws {
        var canvas = canvas([100, 100, 100])
        try canvas.draw(CompositeLayer(image: try VipsImage.fromPixels([UInt8](repeating: 7, count: 2 * 1 * 3),
                                                                        width: 2, height: 1, bands: 3), x: 1, y: 0))
        let bitmap = try Bitmap(canvas.bitmap())
        #expect(bitmap.pixel(0, 0) == [100, 100, 100] && bitmap.pixel(1, 0) == [7, 7, 7] && bitmap.pixel(2, 0) == [7, 7, 7])
        #expect(bitmap.pixel(1, 1) == [100, 100, 100])
    }

    @Test("An opaque RGB first layer hides the background under it only: around it, on every side, the background is whole",
          arguments: [(x: 3, y: 2), (x: 6, y: -1), (x: -2, y: 4)])
    func firstRGBLayerHidesOnlyItsArea(at position: (x: Int, y: Int)) throws {
        let samples = (0..<(3 * 3 * 3)).map { Float(($0 * 41) % 256) }
        let background = BackgroundImage(width: 3, height: 3, samples: samples)
        let plain = try Bitmap(CardCanvas(background: background, width: 9, height: 6).bitmap(rowsPerBand: 4))
        var canvas = CardCanvas(background: background, width: 9, height: 6)
        try canvas.draw(CompositeLayer(image: try VipsImage.fromPixels([UInt8](repeating: 7, count: 4 * 2 * 3),
                                                                        width: 4, height: 2, bands: 3),
                                       x: position.x, y: position.y))
        // Bands of 4 rows: one band holds hidden and whole rows, and the next reuses its samples.
        let painted = try Bitmap(canvas.bitmap(rowsPerBand: 4))
        for y in 0..<6 {
            for x in 0..<9 {
                let inside = (position.x..<position.x + 4).contains(x) && (position.y..<position.y + 2).contains(y)
                #expect(painted.pixel(x, y) == (inside ? [7, 7, 7] : plain.pixel(x, y)), "pixel \(x), \(y)")
            }
        }
    }

    @Test("A coverage mask paints its colour at the colour's alpha times the coverage")
    func paintsCoverage() throws {
        var canvas = canvas([0, 0, 0])
        let mask = try VipsImage.fromPixels([UInt8]([255, 128, 0, 255]), width: 4, height: 1, bands: 1)
        try canvas.draw(CompositeLayer(coverage: mask, color: CardColor(red: 255, green: 255, blue: 255, alpha: 0.5), x: 0, y: 1))

        let bitmap = try Bitmap(canvas.bitmap())
        // 255 · 0.5 = 127.5 → 128 (ties to even); 255 · 0.5 · 128/255 = 64; no coverage → unchanged.
        #expect(bitmap.pixel(0, 1) == [128, 128, 128] && bitmap.pixel(1, 1) == [64, 64, 64])
        #expect(bitmap.pixel(2, 1) == [0, 0, 0] && bitmap.pixel(0, 0) == [0, 0, 0])
    }

    @Test("A coverage column painted across a width paints what the column replicated to that width does, clipped alike")
    func coverageColumnMatchesReplicatedMask() throws {
        let column: [Float] = [0, 63.75, 127.5, 255, 31.9]
        let color = CardColor(red: 30, green: 60, blue: 250, alpha: 0.8)
        let samples = (0..<(3 * 3 * 3)).map { Float(($0 * 41) % 256) }
        func painted(_ layer: CompositeLayer) throws -> Bitmap {
            var canvas = CardCanvas(background: BackgroundImage(width: 3, height: 3, samples: samples), width: 9, height: 6)
            try canvas.draw(layer)
            return try Bitmap(canvas.bitmap(rowsPerBand: 2))
        }
        // Starting left of the canvas and running off its right and bottom edges.
        let columnLayer = CompositeLayer(coverageColumn: try VipsImage.fromPixels(column, width: 1, height: 5, bands: 1),
                                         across: 12, color: color, x: -2, y: 2)
        let rectangle = try VipsImage.fromPixels(column, width: 1, height: 5, bands: 1).replicated(across: 12, down: 1)
        let rectangleLayer = CompositeLayer(coverage: rectangle, color: color, x: -2, y: 2)

        let fromColumn = try painted(columnLayer)
        #expect(fromColumn.samples == (try painted(rectangleLayer)).samples)
        // It painted: the last row, under the column's full coverage, differs from the layer drawn wholly
        // off the canvas, which paints nothing (and does not trap).
        #expect(fromColumn.pixel(8, 5) != (try painted(CompositeLayer(coverage: rectangle, color: color, x: 0, y: 9))).pixel(8, 5))
    }

    @Test("The background is enlarged like libvips' bicubic resize: a smooth image stays within a level or two")
    func backgroundMatchesLibvips() throws {
        // Smooth, as a blurred background is: a slow wave per band over 12 × 9 samples.
        var samples: [Float] = []
        for y in 0..<9 {
            for x in 0..<12 {
                for band in 0..<3 {
                    let wave = sin(Double(x + band) * 0.5) * cos(Double(y) * 0.4)
                    samples.append(Float(128 + 100 * wave))
                }
            }
        }
        let background = BackgroundImage(width: 12, height: 9, samples: samples)
        let ours = try background.scaled(toWidth: 264, height: 198).roundedToUInt8()
        let libvips = try VipsImage.fromPixels(samples, width: 12, height: 9, bands: 3).labelledSRGB()
            .resized(toWidth: 264, height: 198).roundedToUInt8()
        try expectSimilar(ours, libvips, meanTolerance: 0.75, maxTolerance: 4, name: "background-scaling")
    }

    @Test("Painting in bands of any height gives the same bitmap as painting the whole card at once")
    func bandsDoNotChangeTheBitmap() throws {
        let samples = (0..<(5 * 4 * 3)).map { Float(($0 * 37) % 256) }
        var canvas = CardCanvas(background: BackgroundImage(width: 5, height: 4, samples: samples), width: 23, height: 17)
        // Layers that start and end inside bands, overlap each other and run off the canvas.
        let rgb = (0..<(9 * 7 * 3)).map { UInt8(($0 * 11) % 256) }
        try canvas.draw(CompositeLayer(image: try VipsImage.fromPixels(rgb, width: 9, height: 7, bands: 3), x: 2, y: 3))
        let rgba = (0..<(12 * 10 * 4)).map { Float(($0 * 53) % 256) }
        try canvas.draw(CompositeLayer(image: try VipsImage.fromPixels(rgba, width: 12, height: 10, bands: 4), x: 15, y: 9))
        let coverage = (0..<(20 * 6)).map { UInt8(($0 * 29) % 256) }
        try canvas.draw(CompositeLayer(coverage: try VipsImage.fromPixels(coverage, width: 20, height: 6, bands: 1),
                                       color: CardColor(red: 10, green: 200, blue: 90, alpha: 0.7), x: -4, y: 5))

        let whole = try Bitmap(canvas.bitmap(rowsPerBand: 17))
        for rows in [1, 2, 5, 16] {
            #expect(try Bitmap(canvas.bitmap(rowsPerBand: rows)).samples == whole.samples, "bands of \(rows) rows")
        }
        // The layers did paint: the RGB layer's first pixel is its own.
        #expect(whole.pixel(2, 3) == [0, 11, 22])
        // libvips may ask for any window of the bitmap: a part painted alone is that part of the whole.
        let part = try Bitmap(canvas.bitmap().cropped(x: 3, y: 4, width: 11, height: 9))
        for y in 0..<9 {
            for x in 0..<11 {
                #expect(part.pixel(x, y) == whole.pixel(x + 3, y + 4), "pixel \(x), \(y) of the part")
            }
        }
        // Encoding paints the rows as the encoder asks for them: the same image as one painted into memory.
        let bitmap = try canvas.bitmap()
        let encoded = try VipsImage.decode(bitmap.encoded(as: .png(compression: 2, filter: .adaptive)), maxWidth: 1000)
        #expect(try Bitmap(encoded).samples == Bitmap(bitmap.inMemory()).samples)
    }
}
