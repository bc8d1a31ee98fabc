import Synchronization
import Testing
import Vips

/// An image whose pixels Swift paints when libvips asks for them (`VipsImage.generated`).
@Suite("Images painted on demand", .vips)
struct GeneratedImageTests {
    /// Counts what the fill is asked for, and says when it is gone.
    final class Painter: Sendable {
        let rowsPainted = Atomic<Int>(0)
        let gone: @Sendable () -> Void

        init(gone: @escaping @Sendable () -> Void) {
            self.gone = gone
        }

        deinit {
            gone()
        }

        /// Each sample is its column plus twice its row plus its band, modulo 256.
        func fill(rows: Range<Int>, columns: Range<Int>, memory: UnsafeMutableRawPointer, rowBytes: Int) {
            for row in rows {
                let bytes = (memory + (row - rows.lowerBound) * rowBytes).assumingMemoryBound(to: UInt8.self)
                for (offset, column) in columns.enumerated() {
                    for band in 0..<3 {
                        bytes[offset * 3 + band] = UInt8(truncatingIfNeeded: column + 2 * row + band)
                    }
                }
            }
            rowsPainted.add(rows.count, ordering: .relaxed)
        }
    }

    /// The rows `painter` has painted so far; nil once it is gone.
    private func rows(_ painter: Painter?) -> Int? {
        painter?.rowsPainted.load(ordering: .relaxed)
    }

    @Test("Its pixels are what the fill paints, each read paints again, and the fill goes with the image")
    func paintsOnDemandAndIsReleased() throws {
        let released = Atomic<Bool>(false)
        var painter: Painter? = Painter { released.store(true, ordering: .relaxed) }
        weak let watched = painter
        do {
            let image = try VipsImage.generated(width: 37, height: 29, bands: 3) { [painter] rows, columns, memory, rowBytes in
                painter?.fill(rows: rows, columns: columns, memory: memory, rowBytes: rowBytes)
            }
            painter = nil
            #expect(rows(watched) == 0, "nothing is painted before it is read")
            let pixels = try image.pixels(as: UInt8.self)
            #expect(pixels.count == 37 * 29 * 3)
            #expect(pixels[(5 * 37 + 7) * 3 + 2] == UInt8(7 + 2 * 5 + 2))
            #expect(rows(watched) == 29)
            // A window of it paints only the rows it covers, with the columns at their places.
            let part = try image.cropped(x: 10, y: 20, width: 4, height: 3).pixels(as: UInt8.self)
            #expect(part[0] == UInt8(10 + 2 * 20))
            #expect(rows(watched) == 29 + 3)
            let releasedEarly = released.load(ordering: .relaxed)
            #expect(!releasedEarly, "the image keeps its fill")
        }
        let releasedAfter = released.load(ordering: .relaxed)
        #expect(releasedAfter, "the fill goes when the image does")
    }
}
