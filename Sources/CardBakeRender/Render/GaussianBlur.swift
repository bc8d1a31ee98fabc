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
        let radius = kernel.count / 2
        var across = [Float](repeating: 0, count: samples.count)
        var result = [UInt8](repeating: 0, count: samples.count)
        // One row at a time, widened by `radius` repeated edge samples on each side, so both passes
        // are plain multiply-adds over whole rows, which vectorise; empty rows are skipped.
        var padded = [Float](repeating: 0, count: width + 2 * radius)
        var rowIsEmpty = [Bool](repeating: true, count: height)
        kernel.withUnsafeBufferPointer { kernel in
            samples.withUnsafeBufferPointer { source in
                across.withUnsafeMutableBufferPointer { across in
                    padded.withUnsafeMutableBufferPointer { padded in
                        for y in 0..<height {
                            let row = y * width
                            let sourceRow = UnsafeBufferPointer(rebasing: source[row..<row + width])
                            guard sourceRow.contains(where: { $0 != 0 }) else { continue }
                            rowIsEmpty[y] = false
                            for x in 0..<padded.count {
                                padded[x] = Float(sourceRow[min(max(x - radius, 0), width - 1)])
                            }
                            let output = UnsafeMutableBufferPointer(rebasing: across[row..<row + width])
                            for tap in 0..<kernel.count {
                                Self.add(kernel[tap], times: UnsafeBufferPointer(rebasing: padded[tap..<tap + width]),
                                         to: output)
                            }
                        }
                    }
                }
            }
            // The second pass sums each row in floats (reusing `padded`), then rounds it into the result.
            across.withUnsafeBufferPointer { across in
                padded.withUnsafeMutableBufferPointer { padded in
                    let sums = UnsafeMutableBufferPointer(rebasing: padded[0..<width])
                    result.withUnsafeMutableBufferPointer { result in
                        for y in 0..<height {
                            sums.update(repeating: 0)
                            for tap in 0..<kernel.count {
                                let sourceY = min(max(y + tap - radius, 0), height - 1)
                                guard !rowIsEmpty[sourceY] else { continue }
                                Self.add(kernel[tap], times: UnsafeBufferPointer(rebasing: across[sourceY * width..<(sourceY + 1) * width]),
                                         to: sums)
                            }
                            for x in 0..<width {
                                result[y * width + x] = UInt8(min(max(sums[x], 0), 255).rounded())
                            }
                        }
                    }
                }
            }
        }
        return result
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
