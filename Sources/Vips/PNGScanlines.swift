/// An image's rows as PNG compresses them, in memory this owns: each row is its filter's type byte,
/// then the row filtered.
struct PNGScanlines: ~Copyable {
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    var count: Int { bytes.count }

    /// Filters `samples`, rows of `rowBytes` one after another, `bytesPerPixel` to a pixel: every row
    /// with `filter`, or each row with its best filter when `filter` is nil (``AdaptiveFilter``).
    init(filtering samples: [UInt8], rowBytes: Int, bytesPerPixel: Int, with filter: PNGRowFilter?) {
        precondition(rowBytes > 0 && samples.count % rowBytes == 0, "samples are not whole rows")
        let rows = samples.count / rowBytes
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rows * (rowBytes + 1))
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        let adaptive = filter == nil ? AdaptiveFilter(rowBytes: rowBytes) : nil
        samples.withUnsafeBufferPointer { samples in
            zeros.withUnsafeBufferPointer { zeros in
                for y in 0..<rows {
                    let row = samples.baseAddress! + y * rowBytes
                    let above = y == 0 ? zeros.baseAddress! : row - rowBytes
                    let line = bytes.baseAddress! + y * (rowBytes + 1)
                    if let filter {
                        line.pointee = filter.rawValue
                        filter.apply(to: row, above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, into: line + 1)
                    } else {
                        adaptive?.filter(row, above: above, bytesPerPixel: bytesPerPixel, into: line)
                    }
                }
            }
        }
        self.bytes = bytes
    }

    deinit { bytes.deallocate() }

    /// Calls `body` with the filtered image, which lives as long as this does.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(bytes))
    }
}

/// Filters a row with each filter and keeps the one that measures least (``PNGRowFilter/cost(of:count:)``),
/// the first in the filters' order on a tie: libpng's heuristic when every filter is allowed.
private final class AdaptiveFilter {
    private let rowBytes: Int
    /// A row's worth for each filter but `none`, whose bytes are the row's own.
    private let candidates: UnsafeMutablePointer<UInt8>

    init(rowBytes: Int) {
        self.rowBytes = rowBytes
        candidates = .allocate(capacity: rowBytes * (PNGRowFilter.allCases.count - 1))
    }

    deinit { candidates.deallocate() }

    /// Writes the best filter's type byte, then `row` filtered with it, to `line`.
    func filter(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, bytesPerPixel: Int,
                into line: UnsafeMutablePointer<UInt8>) {
        var best = (filter: PNGRowFilter.none, bytes: row, cost: PNGRowFilter.cost(of: row, count: rowBytes))
        for (index, filter) in PNGRowFilter.allCases.dropFirst().enumerated() {
            let filtered = candidates + index * rowBytes
            filter.apply(to: row, above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, into: filtered)
            let cost = PNGRowFilter.cost(of: filtered, count: rowBytes)
            if cost < best.cost { best = (filter, UnsafePointer(filtered), cost) }
        }
        line.pointee = best.filter.rawValue
        (line + 1).update(from: best.bytes, count: rowBytes)
    }
}
