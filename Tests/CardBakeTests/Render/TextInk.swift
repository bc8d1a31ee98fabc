/// Measures of the ink in a one-band coverage mask, for tests of stroke weight and alignment.
struct TextInk {
    let mask: Bitmap

    /// Coverage at which a pixel counts as ink.
    static let threshold = 128

    private func isInk(_ x: Int, _ y: Int) -> Bool { mask.pixel(x, y)[0] >= Self.threshold }

    /// The first and last columns with ink among `rows`; nil when they have none.
    func inkColumns(rows: Range<Int>? = nil) -> ClosedRange<Int>? {
        let rows = rows ?? 0..<mask.height
        let columns = (0..<mask.width).filter { x in rows.contains { isInk(x, $0) } }
        guard let first = columns.first, let last = columns.last else { return nil }
        return first...last
    }

    /// The first and last rows with ink among `columns`; nil when they have none.
    func inkRows(columns: ClosedRange<Int>) -> ClosedRange<Int>? {
        let rows = (0..<mask.height).filter { y in columns.contains { isInk($0, y) } }
        guard let first = rows.first, let last = rows.last else { return nil }
        return first...last
    }

    /// The mean stroke width in pixels: over every ink pixel, the shorter of the horizontal and the
    /// vertical run of ink through it (across a stroke, one of them is its width).
    var meanStrokeWidth: Double {
        let horizontal = runLengths(lines: mask.height, length: mask.width) { row, column in (column, row) }
        let vertical = runLengths(lines: mask.width, length: mask.height) { column, row in (column, row) }
        let strokes = zip(horizontal, vertical).compactMap { $0 > 0 ? min($0, $1) : nil }
        return strokes.isEmpty ? 0 : Double(strokes.reduce(0, +)) / Double(strokes.count)
    }

    /// For every pixel (row by row), the length of the run of ink through it along `lines` lines of
    /// `length` pixels each, `point` giving the pixel at a step along a line; 0 off the ink.
    private func runLengths(lines: Int, length: Int, point: (_ line: Int, _ step: Int) -> (x: Int, y: Int)) -> [Int] {
        var runs = [Int](repeating: 0, count: mask.width * mask.height)
        func isInk(at step: Int, on line: Int) -> Bool {
            let (x, y) = point(line, step)
            return self.isInk(x, y)
        }
        for line in 0..<lines {
            var step = 0
            while step < length {
                guard isInk(at: step, on: line) else { step += 1; continue }
                let start = step
                while step < length && isInk(at: step, on: line) { step += 1 }
                for inRun in start..<step {
                    let (x, y) = point(line, inRun)
                    runs[y * mask.width + x] = step - start
                }
            }
        }
        return runs
    }
}
