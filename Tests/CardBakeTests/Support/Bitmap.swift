import Foundation
import Testing
import Vips

/// Decoded 8-bit pixels for assertions, with tolerant comparisons.
struct Bitmap {
    let width: Int
    let height: Int
    let bands: Int
    let samples: [UInt8]

    init(_ image: VipsImage) throws {
        width = image.width
        height = image.height
        bands = image.bands
        samples = try image.pixels()
    }

    /// Decodes an encoded image (PNG, JPEG, WebP) at its full size.
    init(encoded: Data) throws {
        try self.init(VipsImage.decode(encoded, maxWidth: 1 << 20))
    }

    func pixel(_ x: Int, _ y: Int) -> [Int] {
        let start = (y * width + x) * bands
        return samples[start..<(start + bands)].map(Int.init)
    }

    /// Every pixel, row by row.
    var allPixels: [[Int]] {
        (0..<height).flatMap { y in (0..<width).map { pixel($0, y) } }
    }

    /// Mean of each band over a rectangle.
    func mean(x: Int, y: Int, width: Int, height: Int) -> [Double] {
        var sums = [Double](repeating: 0, count: bands)
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                for (band, value) in pixel(column, row).enumerated() { sums[band] += Double(value) }
            }
        }
        return sums.map { $0 / Double(width * height) }
    }

    /// Brightness (mean of the colour bands) of one pixel.
    func brightness(_ x: Int, _ y: Int) -> Double {
        let p = pixel(x, y)
        return Double(p[0] + p[1] + p[2]) / 3
    }

    /// Mean and largest absolute difference per sample against a bitmap of the same size.
    func difference(from other: Bitmap) -> (mean: Double, max: Int) {
        precondition(width == other.width && height == other.height && bands == other.bands)
        var total = 0, largest = 0
        for (a, b) in zip(samples, other.samples) {
            let d = abs(Int(a) - Int(b))
            total += d
            largest = max(largest, d)
        }
        return (Double(total) / Double(samples.count), largest)
    }
}

/// Expects two images to match within tolerances; on failure saves expected, actual and an
/// amplified difference image under `$TMPDIR/cardbake-test-failures/<name>/` and says where.
func expectSimilar(_ actual: VipsImage, _ expected: VipsImage, meanTolerance: Double, maxTolerance: Int,
                   name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let a = try Bitmap(actual), e = try Bitmap(expected)
    #expect(a.width == e.width && a.height == e.height && a.bands == e.bands,
            "\(name): size \(a.width)x\(a.height)x\(a.bands) vs \(e.width)x\(e.height)x\(e.bands)",
            sourceLocation: sourceLocation)
    guard a.width == e.width, a.height == e.height, a.bands == e.bands else { return }
    let (mean, largest) = a.difference(from: e)
    guard mean > meanTolerance || largest > maxTolerance else { return }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardbake-test-failures/\(name)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let diff = zip(a.samples, e.samples).map { UInt8(min(255, abs(Int($0) - Int($1)) * 8)) }
    try TestImage.png(actual).write(to: folder.appendingPathComponent("actual.png"))
    try TestImage.png(expected).write(to: folder.appendingPathComponent("expected.png"))
    try TestImage.png(try VipsImage.fromPixels(diff, width: a.width, height: a.height, bands: a.bands))
        .write(to: folder.appendingPathComponent("difference.png"))
    Issue.record("\(name): mean difference \(mean) (allowed \(meanTolerance)), largest \(largest) (allowed \(maxTolerance)); images in \(folder.path)",
                 sourceLocation: sourceLocation)
}
