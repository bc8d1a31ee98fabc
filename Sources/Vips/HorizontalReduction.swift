import Foundation

/// libvips 8.14's `reduceh` with its lanczos3 kernel, for 8-bit images of up to four bands, done
/// here: the same masks, positions, integer weights and rounding, so the pixels are byte-identical,
/// but each output pixel sums its bands together in one vector register. libvips 8.14 has no
/// vector path for a horizontal reduction and sums one band at a time (bench/README.md, "Resizing").
///
/// This is the residual reduction after any box shrink (`vips_shrinkh`), which the caller does.
struct HorizontalReduction {
    /// libvips' `VIPS_TRANSFORM_SCALE`: masks for this many sub-pixel positions, plus one.
    private static let positions = 64
    /// libvips' `VIPS_INTERPOLATE_SHIFT`: mask weights are fixed-point with 12 fraction bits.
    private static let weightShift = 12

    private static let bias = SIMD4<Float>(repeating: 0x1p23 + 0x1p22 + Float(1 << (weightShift - 1)))

    let outputWidth: Int
    /// Input pixels each output pixel reads.
    let points: Int
    /// Input pixels the source is extended by on the left, repeating its first pixel.
    private let leftPad: Int
    /// For each output column, the first padded input pixel it reads and the mask it reads it with.
    private let firstPixel: [Int]
    private let maskIndex: [Int]
    /// `points` integer weights per mask, each held as a float four times (one per band lane).
    private let masks: [SIMD4<Float>]

    /// The reduction of `inputWidth` columns by `shrink` (at least 1) to `outputWidth`, after a box
    /// shrink that left `extraPixels` (libvips' name: output × factor − input, in these pixels).
    init(inputWidth: Int, shrink: Double, outputWidth: Int, extraPixels: Double) {
        precondition(shrink >= 1 && outputWidth >= 1, "a reduction to at least one pixel")
        self.outputWidth = outputWidth
        let points = 2 * Int((3 * shrink).rounded(.toNearestOrEven)) + 1
        self.points = points
        leftPad = (points + 1) / 2 - 1
        // A source pixel's mask is picked by where the output pixel's centre falls in it.
        let offset = (1 + extraPixels) / 2 - 1
        var x = 0.5 * shrink - 0.5 - offset
        var firstPixel: [Int] = [], maskIndex: [Int] = []
        for _ in 0..<outputWidth {
            firstPixel.append(Int(x))
            let subpixel = Int(x * Double(Self.positions) * 2) & (Self.positions * 2 - 1)
            maskIndex.append((subpixel + 1) >> 1)
            x += shrink
        }
        self.firstPixel = firstPixel
        self.maskIndex = maskIndex
        masks = (0...Self.positions).flatMap { position in
            Self.lanczos3(points: points, shrink: shrink, at: Double(Float(position) / Float(Self.positions)))
                .map { weight in SIMD4(repeating: Float(Int32(weight * Double(1 << Self.weightShift)))) }
        }
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

    /// Reduces `height` rows of `inputWidth` pixels of `bands` (1–4) interleaved samples from `source`
    /// into `output` (`height` rows of `outputWidth` pixels).
    func reduce(_ source: UnsafeBufferPointer<UInt8>, inputWidth: Int, height: Int, bands: Int,
                into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition((1...4).contains(bands), "one to four bands")
        precondition(source.count >= inputWidth * height * bands && output.count >= outputWidth * height * bands,
                     "the buffers hold the rows")
        let paddedWidth = max(inputWidth + points, (firstPixel.last ?? 0) + points)
        let row = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: paddedWidth)
        defer { row.deallocate() }
        masks.withUnsafeBufferPointer { masks in
            for y in 0..<height {
                let sourceRow = source.baseAddress! + y * inputWidth * bands
                // The row as float lanes, extended by repeating its edge pixels, as libvips' embed does.
                for x in 0..<inputWidth {
                    row[leftPad + x] = Self.lanes(of: sourceRow + x * bands, bands: bands,
                                                  wholeWordReadable: x < inputWidth - 1)
                }
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
                    let mask = masks.baseAddress! + maskIndex[x] * points
                    let pixels = row.baseAddress! + firstPixel[x]
                    var sum = SIMD4<Float>()
                    for tap in 0..<points {
                        sum += mask[tap] * pixels[tap]
                    }
                    let levels = Self.levels(sum)
                    for band in 0..<bands {
                        outputRow[x * bands + band] = levels[band]
                    }
                }
            }
        }
    }

    /// The samples of the pixel at `pixel` in float lanes. With three bands, the fourth lane holds
    /// whatever follows (it is summed apart and never written) when `wholeWordReadable`.
    @inline(__always)
    private static func lanes(of pixel: UnsafePointer<UInt8>, bands: Int, wholeWordReadable: Bool) -> SIMD4<Float> {
        if bands == 4 || bands == 3 && wholeWordReadable {
            let word = UnsafeRawPointer(pixel).loadUnaligned(as: UInt32.self)
            return SIMD4<Float>(unsafeBitCast(word, to: SIMD4<UInt8>.self))
        }
        var lanes = SIMD4<Float>()
        for band in 0..<bands {
            lanes[band] = Float(pixel[band])
        }
        return lanes
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
