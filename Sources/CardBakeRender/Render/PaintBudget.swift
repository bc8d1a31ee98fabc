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

    /// The budget of a build whose `workers` share `cpus`: room for three quarters of a largest paint
    /// per CPU they use. Painting the largest scale is about half of a card's work and the smaller
    /// scales a tenth more, so busy workers want a little over half a largest paint each on average:
    /// this room keeps the CPUs busy while the largest paints seldom all meet. Two megapixels (a 3x
    /// card is about one and a half) are free: paints of cards all at one small scale run side by
    /// side rather than one at a time.
    package convenience init(workers: Int, cpus: Int) {
        self.init(room: Double(min(workers, cpus)) * 0.75, freePixels: 2_000_000)
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
