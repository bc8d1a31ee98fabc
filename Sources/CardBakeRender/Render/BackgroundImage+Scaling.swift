import Vips

extension BackgroundImage {
    /// The background enlarged to `width × height` pixels with a Catmull-Rom cubic, pixel centres
    /// aligned and edges extended (``Enlargement``): float, 3 bands, sRGB.
    public func scaled(toWidth width: Int, height: Int) throws(VipsError) -> VipsImage {
        let enlargement = Enlargement(self, width: width, height: height)
        return try VipsImage.fromPixels(width: width, height: height, bands: 3) { (samples: UnsafeMutableBufferPointer<Float>) in
            enlargement.fill(rows: 0..<height, into: samples)
        }.labelledSRGB()
    }

    /// The background enlarged to `width × height` pixels, computed a band of rows at a time.
    ///
    /// This is libvips' bicubic upsizing done here, separably and in one pass per axis: the
    /// background is tiny (a blur this wide is low-frequency), so every output pixel reads 4 × 4
    /// of its samples, and writing the card-sized result is most of the work. The horizontal pass
    /// is done once, over the source's few rows; each band of output rows then reads four of them.
    package struct Enlargement: Sendable {
        package let width: Int
        package let height: Int
        private let wideRows: [Float]
        private let rows: CubicTaps

        package init(_ background: BackgroundImage, width: Int, height: Int) {
            self.width = width
            self.height = height
            rows = CubicTaps(from: background.height, to: height)
            let columns = CubicTaps(from: background.width, to: width)
            var wideRows = [Float](repeating: 0, count: background.height * width * 3)
            background.samples.withUnsafeBufferPointer { source in
                wideRows.withUnsafeMutableBufferPointer { wide in
                    for row in 0..<background.height {
                        for x in 0..<width {
                            let taps = columns[x]
                            for band in 0..<3 {
                                var sum: Float = 0
                                for tap in 0..<4 {
                                    sum += taps.weights[tap] * source[(row * background.width + taps.indices[tap]) * 3 + band]
                                }
                                wide[(row * width + x) * 3 + band] = sum
                            }
                        }
                    }
                }
            }
            self.wideRows = wideRows
        }

        /// Writes the enlarged `rows` into `output`, from its start: `rows.count × width × 3` samples,
        /// except those of the pixels in `hidden` (a part of the canvas painted over opaquely), which
        /// it leaves as they are.
        package func fill(rows range: Range<Int>, except hidden: PixelRect? = nil,
                          into output: UnsafeMutableBufferPointer<Float>) {
            let rowLength = width * 3
            precondition(output.count >= range.count * rowLength, "the output holds the rows")
            wideRows.withUnsafeBufferPointer { wide in
                for y in range {
                    let taps = rows[y]
                    let weights = (taps.weights[0], taps.weights[1], taps.weights[2], taps.weights[3])
                    let starts = (taps.indices[0] * rowLength, taps.indices[1] * rowLength,
                                  taps.indices[2] * rowLength, taps.indices[3] * rowLength)
                    let out = (y - range.lowerBound) * rowLength
                    for columns in shown(row: y, hidden: hidden) {
                        let samples = columns.lowerBound * 3..<columns.upperBound * 3
                        func wideRow(_ start: Int) -> UnsafeBufferPointer<Float> {
                            UnsafeBufferPointer(rebasing: wide[start + samples.lowerBound..<start + samples.upperBound])
                        }
                        Self.blend(weights, of: (wideRow(starts.0), wideRow(starts.1), wideRow(starts.2), wideRow(starts.3)),
                                   into: UnsafeMutableBufferPointer(rebasing: output[out + samples.lowerBound..<out + samples.upperBound]))
                    }
                }
            }
        }

        /// `output[i]` = the weighted sum of the four rows' `i`th samples. Buffers indexed from 0, with
        /// no offset arithmetic the compiler must check for overflow in the loop, so that it vectorises.
        private static func blend(_ w: (Float, Float, Float, Float),
                                  of rows: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>,
                                            UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>),
                                  into output: UnsafeMutableBufferPointer<Float>) {
            for index in output.indices {
                output[index] = w.0 * rows.0[index] + w.1 * rows.1[index] + w.2 * rows.2[index] + w.3 * rows.3[index]
            }
        }

        /// The columns of row `y` outside `hidden`: the whole row, or what lies left and right of it.
        private func shown(row y: Int, hidden: PixelRect?) -> [Range<Int>] {
            guard let hidden, (hidden.y..<hidden.y + hidden.height).contains(y) else { return [0..<width] }
            let covered = (hidden.x..<hidden.x + hidden.width).clamped(to: 0..<width)
            return [0..<covered.lowerBound, covered.upperBound..<width].filter { !$0.isEmpty }
        }
    }
}

/// For each output position along one axis, the four source positions a Catmull-Rom cubic reads
/// (clamped to the edges) and their weights.
private struct CubicTaps: Sendable {
    struct Taps {
        var indices: [Int]
        var weights: [Float]
    }

    private let taps: [Taps]

    init(from sourceCount: Int, to count: Int) {
        let step = Double(sourceCount) / Double(count)
        taps = (0..<count).map { position in
            let centre = (Double(position) + 0.5) * step - 0.5
            let first = Int(centre.rounded(.down))
            let t = centre - Double(first)
            let t2 = t * t, t3 = t2 * t
            let weights = [(-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2,
                           (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2]
            return Taps(indices: (first - 1...first + 2).map { min(max($0, 0), sourceCount - 1) },
                        weights: weights.map(Float.init))
        }
    }

    subscript(position: Int) -> Taps { taps[position] }
}
