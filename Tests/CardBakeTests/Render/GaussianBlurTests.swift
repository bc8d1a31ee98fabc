import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Gaussian blur of text shadows", .vips)
struct GaussianBlurTests {
    @Test("The kernel is libvips' gaussmat at minimum amplitude 0.2: odd, symmetric, summing to 1",
          arguments: [(sigma: 1.0, taps: 3), (sigma: 3.0, taps: 11), (sigma: 7.5, taps: 27)])
    func kernel(sigma: Double, taps: Int) {
        let kernel = GaussianBlur(sigma: sigma).kernel
        #expect(kernel.count == taps)
        #expect(abs(kernel.reduce(0, +) - 1) < 1e-5)
        #expect(kernel == kernel.reversed())
    }

    @Test("A blurred mask matches libvips' float-precision gaussblur rounded: within half a level and a tenth", arguments: [1.5, 4.0])
    func matchesLibvips(sigma: Double) throws {
        // A glyph-like mask: strokes and dots on a transparent field wider than the blur's reach.
        let (width, height) = (48, 32)
        let mask: [UInt8] = (0..<width * height).map { index in
            let (x, y) = (index % width, index / width)
            return (x % 9 < 3 && (12..<20).contains(y)) || (x + y) % 13 == 0 && (8..<24).contains(x) ? 255 : 0
        }
        let ours = GaussianBlur(sigma: sigma).blurred(mask, width: width, height: height)
        let libvips: [Float] = try VipsImage.fromPixels(mask, width: width, height: height, bands: 1)
            .castToFloat().gaussianBlurred(sigma: sigma).pixels()
        let worst = zip(ours, libvips).map { abs(Float($0) - $1) }.max() ?? .infinity
        #expect(worst < 0.6, "largest difference \(worst) levels")
    }

    @Test("A mask many kernels tall, with empty rows between its strokes, blurs as the direct sum of its clamped neighbours",
          arguments: [1.2, 3.0, 7.5])
    func tallMask(sigma: Double) {
        let (width, height) = (23, 181)
        let mask: [UInt8] = (0..<width * height).map { index in
            let (x, y) = (index % width, index / width)
            return y % 37 < 4 || (y / 11) % 3 == 0 && (x * 7 + y) % 5 == 0 ? UInt8((x * 11 + y * 3) % 256) : 0
        }
        let kernel = GaussianBlur(sigma: sigma).kernel.map(Double.init)
        let radius = kernel.count / 2
        func source(_ x: Int, _ y: Int) -> Double {
            Double(mask[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)])
        }
        let ours = GaussianBlur(sigma: sigma).blurred(mask, width: width, height: height)
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for (row, rowWeight) in kernel.enumerated() {
                    for (column, weight) in kernel.enumerated() {
                        sum += rowWeight * weight * source(x + column - radius, y + row - radius)
                    }
                }
                worst = max(worst, abs(Double(ours[y * width + x]) - min(max(sum, 0), 255)))
            }
        }
        #expect(worst < 0.51, "largest difference \(worst) levels")
    }

    @Test("Rounding a sum to a level is rounded() clipped to 0–255: every half, its neighbours, and out of range")
    func roundingMatchesRounded() {
        var sums: [Float] = [-1, -0.5, -0.0, 0, 255, 255.4, 255.5, 256, 1e9, .infinity, -.infinity]
        for level in 0...255 {
            let half = Float(level) + 0.5
            sums += [Float(level), half, half.nextDown, half.nextUp, Float(level).nextUp, Float(level).nextDown]
        }
        sums += stride(from: Float(-2), through: 258, by: 0.013).map { $0 }
        let wrong = sums.filter { GaussianBlur.roundedByte($0) != UInt8(min(max($0, 0), 255).rounded()) }
        #expect(wrong.isEmpty, "differs for \(wrong.prefix(5))")
    }
}
