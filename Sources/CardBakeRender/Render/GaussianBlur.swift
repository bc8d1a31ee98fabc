import Foundation

/// A separable Gaussian blur of one-band 8-bit samples, computed here in float and rounded to 8 bits: libvips'
/// `gaussblur` kernel (float precision, minimum amplitude 0.2, normalised) with edge samples
/// repeated beyond the edges.
///
/// Text shadows use it rather than libvips: a shadow mask is small, and libvips' float blur costs
/// more for it (docs/ARCHITECTURE.md, "Where things are", has why not the integer one).
package struct GaussianBlur {
    /// The kernel's weights, summing to 1; an odd count, centred.
    package let kernel: [Float]

    package init(sigma: Double) {
        let twoSigmaSquared = 2 * sigma * sigma
        let searchLimit = min(max(0, Int(8 * sigma)), 5000)
        var reach = 0
        while reach < searchLimit, exp(-Double(reach * reach) / twoSigmaSquared) >= 0.2 {
            reach += 1
        }
        let count = max(1, reach * 2 - 1)
        let weights = (0..<count).map { index -> Double in
            let offset = Double(index - count / 2)
            return exp(-offset * offset / twoSigmaSquared)
        }
        let sum = weights.reduce(0, +)
        kernel = weights.map { Float($0 / sum) }
    }

    /// `samples` (`width × height`, row by row) blurred: the same size, each sample rounded to the
    /// nearest level (within half a level of libvips' float result).
    package func blurred(_ samples: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(samples.count == width * height, "sample count does not match the size")
        let rowIsEmpty = (0..<height).map { y in !samples[y * width..<(y + 1) * width].contains { $0 != 0 } }
        return samples.withUnsafeBufferPointer { source in
            kernel.withUnsafeBufferPointer { kernel in
                [UInt8](unsafeUninitializedCapacity: samples.count) { result, count in
                    Self.blur(source, width: width, rowIsEmpty: rowIsEmpty, kernel: kernel, into: result)
                    count = samples.count
                }
            }
        }
    }

    /// Both passes, writing every sample of `result`. Besides it they hold one float row per tap of
    /// the kernel, not a float plane of the mask (about 3 MB for a description's shadow at 3x).
    private static func blur(_ source: UnsafeBufferPointer<UInt8>, width: Int, rowIsEmpty: [Bool],
                             kernel: UnsafeBufferPointer<Float>, into result: UnsafeMutableBufferPointer<UInt8>) {
        let (radius, height) = (kernel.count / 2, rowIsEmpty.count)
        // Rows blurred across, in a ring: row `y` in slot `y % kernel.count`, so the rows one output
        // row reads (at most `kernel.count` consecutive ones) are all there at once.
        let across = UnsafeMutableBufferPointer<Float>.allocate(capacity: kernel.count * width)
        // A source row widened by `radius` repeated edge samples on each side, so both passes are
        // plain multiply-adds over whole rows, which vectorise; empty rows are skipped.
        let padded = UnsafeMutableBufferPointer<Float>.allocate(capacity: width + 2 * radius)
        let sums = UnsafeMutableBufferPointer<Float>.allocate(capacity: width)
        defer { [across, padded, sums].forEach { $0.deallocate() } }
        func acrossRow(_ y: Int) -> UnsafeMutableBufferPointer<Float> {
            let start = y % kernel.count * width
            return UnsafeMutableBufferPointer(rebasing: across[start..<start + width])
        }
        var firstNotAcross = 0
        for y in 0..<height {
            let lastRead = min(y + radius, height - 1)
            for row in firstNotAcross..<lastRead + 1 where !rowIsEmpty[row] {
                let sourceRow = UnsafeBufferPointer(rebasing: source[row * width..<(row + 1) * width])
                let (first, last) = (Float(sourceRow[0]), Float(sourceRow[width - 1]))
                for x in 0..<radius {
                    padded[x] = first
                    padded[radius + width + x] = last
                }
                let middle = UnsafeMutableBufferPointer(rebasing: padded[radius..<radius + width])
                for x in 0..<width {
                    middle[x] = Float(sourceRow[x])
                }
                let output = acrossRow(row)
                output.update(repeating: 0)
                for tap in 0..<kernel.count {
                    add(kernel[tap], times: UnsafeBufferPointer(rebasing: padded[tap..<tap + width]), to: output)
                }
            }
            firstNotAcross = lastRead + 1
            sums.update(repeating: 0)
            for tap in 0..<kernel.count {
                let sourceY = min(max(y + tap - radius, 0), height - 1)
                guard !rowIsEmpty[sourceY] else { continue }
                add(kernel[tap], times: UnsafeBufferPointer(acrossRow(sourceY)), to: sums)
            }
            let resultRow = UnsafeMutableBufferPointer(rebasing: result[y * width..<(y + 1) * width])
            for x in 0..<width {
                resultRow[x] = roundedByte(sums[x])
            }
        }
    }

    /// `sum` clipped to 0–255 and rounded to the nearest integer, halves away from zero (as
    /// `rounded()`), in arithmetic that vectorises: adding 2²³ rounds to the nearest even integer,
    /// and a half that went down to even goes up by one.
    @inline(__always)
    static func roundedByte(_ sum: Float) -> UInt8 {
        let clipped = min(max(sum, 0), 255)
        let biased = clipped + 0x1p23
        let halfDown: UInt32 = clipped - (biased - 0x1p23) == 0.5 ? 1 : 0
        return UInt8(truncatingIfNeeded: biased.bitPattern &+ halfDown)
    }

    /// `output[i] += weight × row[i]` for every `i`; the rows have the same length.
    @inline(__always)
    private static func add(_ weight: Float, times row: UnsafeBufferPointer<Float>,
                            to output: UnsafeMutableBufferPointer<Float>) {
        for index in 0..<output.count {
            output[index] += weight * row[index]
        }
    }
}
