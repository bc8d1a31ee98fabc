import Foundation

/// libvips 8.14's `reduceh` with its lanczos3 kernel, for 8-bit images of up to four bands, done
/// here: the same masks, positions, integer weights and rounding, so the pixels are byte-identical,
/// but each output pixel sums its bands together in one vector register. libvips 8.14 has no
/// vector path for a horizontal reduction and sums one band at a time (bench/README.md, "Resizing").
///
/// This is the residual reduction after any box shrink (`vips_shrinkh`), which the caller does.
struct HorizontalReduction {
    /// libvips' `VIPS_INTERPOLATE_SHIFT`: mask weights are fixed-point with 12 fraction bits.
    private static let weightShift = 12

    private static let bias = SIMD4<Float>(repeating: 0x1p23 + 0x1p22 + Float(1 << (weightShift - 1)))

    let axis: ReductionAxis
    var outputWidth: Int { axis.outputCount }
    /// `points` integer weights per mask, each held as a float four times (one per band lane).
    private let masks: [SIMD4<Float>]

    /// The reduction of a row by `shrink` (at least 1) to `outputWidth` pixels, after a box shrink
    /// that left `extraPixels` (libvips' name: output × shrink − input, in these pixels).
    init(shrink: Double, outputWidth: Int, extraPixels: Double) {
        axis = ReductionAxis(shrink: shrink, outputCount: outputWidth, extraPixels: extraPixels,
                             restartEvery: outputWidth)
        masks = axis.weights.flatMap { weights in
            weights.map { SIMD4(repeating: Float(Int32($0 * Double(1 << Self.weightShift)))) }
        }
    }

    /// Reduces `height` rows of `inputWidth` pixels of `bands` (1–4) interleaved samples from `source`
    /// into `output` (`height` rows of `outputWidth` pixels).
    func reduce(_ source: UnsafeBufferPointer<UInt8>, inputWidth: Int, height: Int, bands: Int,
                into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition((1...4).contains(bands), "one to four bands")
        precondition(source.count >= inputWidth * height * bands && output.count >= outputWidth * height * bands,
                     "the buffers hold the rows")
        let (points, leftPad) = (axis.points, axis.leadingPad)
        let paddedWidth = max(inputWidth + points, (axis.firstPixel.last ?? 0) + points)
        let row = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: paddedWidth)
        defer { row.deallocate() }
        masks.withUnsafeBufferPointer { masks in
            for y in 0..<height {
                let sourceRow = source.baseAddress! + y * inputWidth * bands
                // The row as float lanes, extended by repeating its edge pixels, as libvips' embed does.
                Self.widen(sourceRow, pixels: inputWidth, bands: bands, into: row.baseAddress! + leftPad)
                for x in 0..<leftPad {
                    row[x] = row[leftPad]
                }
                for x in leftPad + inputWidth..<paddedWidth {
                    row[x] = row[leftPad + inputWidth - 1]
                }
                let outputRow = output.baseAddress! + y * outputWidth * bands
                for x in 0..<outputWidth {
                    // Every product and partial sum is an integer below 2^24, exact in a float:
                    // the same sum as libvips' int arithmetic, in any order.
                    let levels = Self.levels(Self.sum(masks.baseAddress! + axis.maskIndex[x] * points,
                                                      times: row.baseAddress! + axis.firstPixel[x], count: points))
                    for band in 0..<bands {
                        outputRow[x * bands + band] = levels[band]
                    }
                }
            }
        }
    }

    /// Σ `mask[i] × pixels[i]` over `count` taps, in four running sums so that each add need not wait
    /// for the one before; any order gives the same exact integers.
    @inline(__always)
    private static func sum(_ mask: UnsafePointer<SIMD4<Float>>, times pixels: UnsafePointer<SIMD4<Float>>,
                            count: Int) -> SIMD4<Float> {
        var (s0, s1, s2, s3) = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        var tap = 0
        while tap + 4 <= count {
            s0 += mask[tap] * pixels[tap]
            s1 += mask[tap + 1] * pixels[tap + 1]
            s2 += mask[tap + 2] * pixels[tap + 2]
            s3 += mask[tap + 3] * pixels[tap + 3]
            tap += 4
        }
        while tap < count {
            s0 += mask[tap] * pixels[tap]
            tap += 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    /// Each of `pixels` pixels of `bands` samples as four float lanes. With three bands, the fourth
    /// lane holds the next pixel's first sample (summed apart, never written), except for the last.
    private static func widen(_ source: UnsafePointer<UInt8>, pixels: Int, bands: Int,
                              into lanes: UnsafeMutablePointer<SIMD4<Float>>) {
        let wholeWords = bands == 4 ? pixels : bands == 3 ? pixels - 1 : 0
        for x in 0..<wholeWords {
            let word = UnsafeRawPointer(source + x * bands).loadUnaligned(as: UInt32.self)
            lanes[x] = SIMD4<Float>(unsafeBitCast(word, to: SIMD4<UInt8>.self))
        }
        for x in wholeWords..<pixels {
            var pixel = SIMD4<Float>()
            for band in 0..<bands {
                pixel[band] = Float(source[x * bands + band])
            }
            lanes[x] = pixel
        }
    }

    /// libvips' `(sum + 2^11) >> 12`, clipped to 0–255, of exact integer sums (each within ±2^22 − 2^11).
    /// Adding 2^23 + 2^22 + 2^11 leaves `sum + 2^22 + 2^11` in the float's low 23 bits.
    @inline(__always)
    private static func levels(_ sum: SIMD4<Float>) -> SIMD4<UInt8> {
        let biased = unsafeBitCast(sum + bias, to: SIMD4<Int32>.self) & 0x7F_FFFF
        let shifted = (biased &>> Int32(weightShift)) &- Int32(1 << (22 - weightShift))
        return SIMD4<UInt8>(truncatingIfNeeded: shifted.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)))
    }
}
