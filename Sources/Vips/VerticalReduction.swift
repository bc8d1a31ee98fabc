/// libvips 8.14's `reducev` with its lanczos3 kernel for 8-bit images, as its vector (orc) path
/// computes it, done here: weights fixed point with 6 fraction bits, 16-bit sums from 32, an
/// arithmetic shift by 6 and a clip, so the pixels are byte-identical. libvips compiles orc
/// programs for every reduction it builds, which for a card's small images costs more than the
/// reduction (bench/README.md, "Resizing").
///
/// This is the residual reduction after any box shrink (`vips_shrinkv`), which the caller does.
struct VerticalReduction {
    /// The rows libvips' sinks ask a reduction for at a time (`VIPS__FATSTRIP_HEIGHT`): where it
    /// starts adding up positions again.
    static let stripHeight = 16
    /// libvips' vector path takes masks of up to 10 passes of 5 taps; longer ones go to its C path.
    static let maxVectorPoints = 50
    /// Sums start here and are shifted right by this many bits: weights have 6 fraction bits.
    private static let rounding: Int16 = 32
    private static let weightShift: Int16 = 6

    let axis: ReductionAxis
    var outputHeight: Int { axis.outputCount }
    /// `points` weights per mask.
    private let masks: [Int16]

    /// The reduction of a column by `shrink` (at least 1, with at most ``maxVectorPoints`` points) to
    /// `outputHeight` pixels, after a box shrink that left `extraPixels`.
    init(shrink: Double, outputHeight: Int, extraPixels: Double) {
        axis = ReductionAxis(shrink: shrink, outputCount: outputHeight, extraPixels: extraPixels,
                             restartEvery: Self.stripHeight)
        precondition(axis.points <= Self.maxVectorPoints, "libvips' vector path reads at most 50 taps")
        masks = axis.weights.flatMap { Self.fixedPoint($0, scale: 64) }
        // libvips adds with 16-bit saturation; no sum of 8-bit samples reaches it with these
        // weights, so wrapping 16-bit arithmetic gives the same result.
        for mask in stride(from: 0, to: masks.count, by: axis.points) {
            let weights = masks[mask..<mask + axis.points].map(Int.init)
            precondition(Int(Self.rounding) + 255 * weights.filter { $0 > 0 }.reduce(0, +) <= Int(Int16.max)
                         && Int(Self.rounding) + 255 * weights.filter { $0 < 0 }.reduce(0, +) >= Int(Int16.min),
                         "a sum of 8-bit samples stays within 16 bits")
        }
    }

    /// libvips' `vips_vector_to_fixed_point`: `weights` times about `scale`, rounded, summing to
    /// their sum times `scale` rounded, found by bisecting the factor, any remainder spread from the start.
    static func fixedPoint(_ weights: [Double], scale: Int) -> [Int16] {
        let count = weights.count
        let target = Int((weights.reduce(0, +) * Double(scale)).rounded(.toNearestOrEven))
        var (high, low) = (Double(scale + (count + 1) / 2), Double(scale - (count + 1) / 2))
        var fixed: [Int] = []
        var sum = 0
        repeat {
            let guess = (high + low) / 2
            fixed = weights.map { Int(($0 * guess).rounded(.toNearestOrEven)) }
            sum = fixed.reduce(0, +)
            if sum == target { break }
            if sum < target { low = guess } else { high = guess }
        } while high - low > 0.01
        if sum != target {
            let (each, extra) = ((target - sum) / count, (target - sum) % count)
            fixed = fixed.map { $0 + each }
            for index in 0..<abs(extra) {
                fixed[index] += extra > 0 ? 1 : -1
            }
        }
        return fixed.map { Int16($0) }
    }

    /// Reduces `inputRows` rows of `rowLength` samples from `source` into `output` (``outputHeight``
    /// rows of the same length).
    func reduce(_ source: UnsafeBufferPointer<UInt8>, rowLength: Int, inputRows: Int,
                into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(source.count >= rowLength * inputRows && output.count >= rowLength * outputHeight,
                     "the buffers hold the rows")
        let points = axis.points
        var rows = [UnsafePointer<UInt8>](repeating: source.baseAddress!, count: points)
        masks.withUnsafeBufferPointer { masks in
            for y in 0..<outputHeight {
                // The rows the taps read, the input extended by repeating its first and last rows.
                for tap in 0..<points {
                    let row = min(max(axis.firstPixel[y] + tap - axis.leadingPad, 0), inputRows - 1)
                    rows[tap] = source.baseAddress! + row * rowLength
                }
                let weights = masks.baseAddress! + axis.maskIndex[y] * points
                let out = output.baseAddress! + y * rowLength
                var x = 0
                while x + 16 <= rowLength {
                    var sum = SIMD16<Int16>(repeating: Self.rounding)
                    for tap in 0..<points {
                        let samples = UnsafeRawPointer(rows[tap] + x).loadUnaligned(as: SIMD16<UInt8>.self)
                        sum &+= SIMD16<Int16>(truncatingIfNeeded: samples) &* SIMD16(repeating: weights[tap])
                    }
                    let levels = (sum &>> Self.weightShift).clamped(lowerBound: .zero, upperBound: SIMD16(repeating: 255))
                    UnsafeMutableRawPointer(out + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: levels),
                                                                as: SIMD16<UInt8>.self)
                    x += 16
                }
                while x < rowLength {
                    var sum = Self.rounding
                    for tap in 0..<points {
                        sum &+= Int16(rows[tap][x]) &* weights[tap]
                    }
                    out[x] = UInt8(min(max(sum &>> Self.weightShift, 0), 255))
                    x += 1
                }
            }
        }
    }
}
