import Foundation

/// Caps the pixels a build's workers paint at once, so that its peak memory does not hang on how
/// many workers happen to paint their largest cards at the same moment (a long build is sure to
/// meet that moment, a short one may not).
///
/// Painting and encoding a card at one scale takes memory in proportion to its pixels. A paint starts
/// when the pixels already being painted plus its own fit within `room` times the largest paint seen
/// so far, or within `freePixels`, or when nothing else is painting; else its worker waits.
package final class PaintBudget: @unchecked Sendable {
    /// How many of the largest paints fit at once, at least one; a fraction leaves room for smaller
    /// paints beside them.
    package let room: Double
    /// Pixels that may be painted at once whatever the largest paint: paints this small take too
    /// little memory for their number to matter.
    package let freePixels: Int
    private let condition = NSCondition()
    private var painting = 0
    private var largest = 0

    package init(room: Double, freePixels: Int = 0) {
        self.room = max(1, room)
        self.freePixels = freePixels
    }

    /// The budget of a build whose `workers` share `cpus`: room for one and a half largest paints
    /// per CPU they use, so that the default workers (one more than the CPUs) paint their largest
    /// scales side by side on a small machine: a paint waits on the text lock and the encoder's
    /// memory now and then, and with less room a CPU waits for it. More workers than that (`--jobs`)
    /// take turns. Two megapixels are free: paints of cards all at one small scale run side by side
    /// rather than one at a time.
    package convenience init(workers: Int, cpus: Int) {
        self.init(room: Double(min(workers, cpus)) * 1.5, freePixels: 2_000_000)
    }

    /// Runs `body`, which paints `pixels`, once the budget has room for them.
    package func paint<Result>(pixels: Int, _ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        largest = max(largest, pixels)
        while painting > 0 && Double(painting + pixels) > max(room * Double(largest), Double(freePixels)) {
            condition.wait()
        }
        painting += pixels
        condition.unlock()
        defer {
            condition.lock()
            painting -= pixels
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
