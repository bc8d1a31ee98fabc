/// One of PNG's row filters (PNG specification, section 9): each byte is stored as its difference,
/// modulo 256, from a prediction made from the byte one pixel to its left (`a`), the byte above it
/// (`b`) and the byte above that left one (`c`). Bytes left of a row, and the row above the first,
/// count as zeros. The raw value is the filter type byte that starts each row in the file.
enum PNGRowFilter: UInt8, CaseIterable {
    case none = 0, sub, up, average, paeth

    /// Writes `row` filtered into `filtered`. `above` is the row before it (zeros for the first row);
    /// each holds `count` bytes, `bytesPerPixel` apart from one pixel to the next.
    func apply(to row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bytesPerPixel: Int,
               into filtered: UnsafeMutablePointer<UInt8>) {
        let first = min(bytesPerPixel, count)
        switch self {
        case .none:
            filtered.update(from: row, count: count)
        case .sub:
            filtered.update(from: row, count: first)
            for i in first..<count { filtered[i] = row[i] &- row[i &- bytesPerPixel] }
        case .up:
            for i in 0..<count { filtered[i] = row[i] &- above[i] }
        case .average:
            for i in 0..<first { filtered[i] = row[i] &- above[i] >> 1 }
            for i in first..<count {
                filtered[i] = row[i] &- UInt8(truncatingIfNeeded: (UInt16(row[i &- bytesPerPixel]) &+ UInt16(above[i])) >> 1)
            }
        case .paeth:
            // With a and c zero, the prediction is b.
            for i in 0..<first { filtered[i] = row[i] &- above[i] }
            for i in first..<count {
                filtered[i] = row[i] &- Self.paethPrediction(row[i &- bytesPerPixel], above[i], above[i &- bytesPerPixel])
            }
        }
    }

    /// Of a, b and c, the one nearest to a + b - c; ties go to a, then b.
    @inline(__always)
    private static func paethPrediction(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let (a16, b16, c16) = (Int16(a), Int16(b), Int16(c))
        let distanceA = (b16 &- c16).magnitude
        let distanceB = (a16 &- c16).magnitude
        let distanceC = (a16 &+ b16 &- c16 &- c16).magnitude
        return distanceA <= min(distanceB, distanceC) ? a : (distanceB <= distanceC ? b : c)
    }
}

extension PNGRowFilter {
    /// libpng's measure of how well a filter did: the sum of the magnitudes of the filtered bytes
    /// taken as signed. The adaptive choice picks the filter whose row measures least.
    static func cost(of filtered: UnsafePointer<UInt8>, count: Int) -> Int {
        // Summed in blocks small enough for 32-bit lanes (128 × 2^24 < 2^32), which vectorise wider.
        var total = 0
        var start = 0
        while start < count {
            let end = min(start + 1 << 24, count)
            var sum: UInt32 = 0
            for i in start..<end { sum &+= UInt32(Int8(bitPattern: filtered[i]).magnitude) }
            total += Int(sum)
            start = end
        }
        return total
    }
}
