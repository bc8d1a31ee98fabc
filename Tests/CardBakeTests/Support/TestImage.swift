import Foundation
import Vips

/// Images made in code, so tests need no fixtures on disk.
enum TestImage {
    /// `width × height` pixels of `bands` 8-bit samples computed by `pixel(x, y)`.
    static func make(width: Int, height: Int, bands: Int = 3, pixel: (Int, Int) -> [UInt8]) throws -> VipsImage {
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                samples += pixel(x, y)
            }
        }
        return try VipsImage.fromPixels(samples, width: width, height: height, bands: bands).labelledSRGB()
    }

    /// One colour everywhere.
    static func solid(width: Int, height: Int, _ colour: [UInt8]) throws -> VipsImage {
        try make(width: width, height: height, bands: colour.count) { _, _ in colour }
    }

    /// Saturated colour blocks with a diagonal ramp: detail for blur and resize comparisons.
    static func blocks(width: Int, height: Int) throws -> VipsImage {
        try make(width: width, height: height) { x, y in
            let block = (x * 4 / width) + 4 * (y * 3 / height)
            let palette: [[UInt8]] = [[220, 40, 40], [40, 200, 60], [30, 60, 220], [240, 220, 30],
                                      [200, 40, 200], [30, 200, 210], [250, 250, 250], [20, 20, 20],
                                      [240, 140, 20], [120, 70, 30], [90, 160, 240], [160, 240, 120]]
            let ramp = UInt8((x + y) * 40 / (width + height))
            return palette[block % palette.count].map { $0 &- min($0, ramp) }
        }
    }

    /// PNG bytes of `image`.
    static func png(_ image: VipsImage) throws -> Data {
        try image.encoded(as: .png(compression: 1, filter: .none))
    }

    /// Writes PNG bytes of `image` to `url`.
    static func write(_ image: VipsImage, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try png(image).write(to: url)
    }
}
