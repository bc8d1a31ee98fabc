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
        let (width, height) = (mask.width, mask.height)
        var horizontal = [Int](repeating: 0, count: width * height)
        var vertical = horizontal
        for y in 0..<height {
            var x = 0
            while x < width {
                guard isInk(x, y) else { x += 1; continue }
                let start = x
                while x < width && isInk(x, y) { x += 1 }
                for inRun in start..<x { horizontal[y * width + inRun] = x - start }
            }
        }
        for x in 0..<width {
            var y = 0
            while y < height {
                guard isInk(x, y) else { y += 1; continue }
                let start = y
                while y < height && isInk(x, y) { y += 1 }
                for inRun in start..<y { vertical[inRun * width + x] = y - start }
            }
        }
        let strokes = zip(horizontal, vertical).compactMap { $0 > 0 ? min($0, $1) : nil }
        return strokes.isEmpty ? 0 : Double(strokes.reduce(0, +)) / Double(strokes.count)
    }
}
