import Foundation

/// One axis of libvips 8.14's lanczos3 reduction (`reduceh`, `reducev`) after its box shrink: how
/// many input pixels each output pixel reads, from where, and with which of its sub-pixel masks, as
/// libvips computes them, so that ``HorizontalReduction`` and ``VerticalReduction`` give its pixels.
struct ReductionAxis {
    /// libvips' `VIPS_TRANSFORM_SCALE`: masks for this many sub-pixel positions, plus one.
    static let positions = 64

    /// The output pixels along the axis.
    let outputCount: Int
    /// Input pixels each output pixel reads.
    let points: Int
    /// Input pixels the input is extended by before its first, repeating it (libvips' `embed`).
    let leadingPad: Int
    /// For each output pixel, the first extended input pixel it reads and the mask it reads them with.
    let firstPixel: [Int]
    let maskIndex: [Int]
    /// For each mask, `points` weights summing to 1.
    let weights: [[Double]]

    /// The reduction by `shrink` (at least 1) to `outputCount` pixels, after a box shrink that left
    /// `extraPixels` (libvips' name: output × shrink − input, in these pixels). libvips finds each
    /// output pixel's position by adding `shrink` from the start of the region it computes:
    /// `restartEvery` output pixels (`reduceh`'s regions are whole rows; `reducev`'s are the strips
    /// its sinks ask for, `VerticalReduction.stripHeight` rows).
    init(shrink: Double, outputCount: Int, extraPixels: Double, restartEvery: Int) {
        precondition(shrink >= 1 && outputCount >= 1 && restartEvery >= 1, "a reduction to at least one pixel")
        self.outputCount = outputCount
        let points = Self.points(shrinking: shrink)
        self.points = points
        leadingPad = (points + 1) / 2 - 1
        // The middle of the pixels left over, (1 + extra) / 2 − 1, is where the reduction starts.
        let offset = (1 + extraPixels) / 2 - 1
        var firstPixel: [Int] = [], maskIndex: [Int] = []
        var position = 0.0
        for output in 0..<outputCount {
            if output % restartEvery == 0 {
                position = (Double(output) + 0.5) * shrink - 0.5 - offset
            }
            firstPixel.append(Int(position))
            let subpixel = Int(position * Double(Self.positions) * 2) & (Self.positions * 2 - 1)
            maskIndex.append((subpixel + 1) >> 1)
            position += shrink
        }
        self.firstPixel = firstPixel
        self.maskIndex = maskIndex
        weights = (0...Self.positions).map { position in
            Self.lanczos3(points: points, shrink: shrink, at: Double(Float(position) / Float(Self.positions)))
        }
    }

    /// libvips' `vips_reduce_get_points` for lanczos3.
    static func points(shrinking shrink: Double) -> Int {
        2 * Int((3 * shrink).rounded(.toNearestOrEven)) + 1
    }

    /// libvips' `calculate_coefficients_lanczos` with a = 3: the weights, summing to 1, of `points`
    /// pixels around a centre `position` (0–1) past the middle one, operation for operation.
    private static func lanczos3(points: Int, shrink: Double, at position: Double) -> [Double] {
        let a = 3.0
        let half = position + Double(points) / 2 - 1
        let weights = (0..<points).map { index -> Double in
            let xp = (Double(index) - half) / shrink
            if xp == 0 { return 1 }
            if xp < -a || xp > a { return 0 }
            return a * sin(Double.pi * xp) * sin(Double.pi * xp / a) / (Double.pi * Double.pi * xp * xp)
        }
        let sum = weights.reduce(0, +)
        return weights.map { $0 / sum }
    }
}
