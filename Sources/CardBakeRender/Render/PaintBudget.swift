import Foundation

/// Caps the pixels a build's workers paint at once, so that its peak memory does not hang on how
/// many workers happen to paint their largest cards at the same moment (a long build is sure to
/// meet that moment, a short one may not).
///
/// Painting and encoding a card at one scale takes memory in proportion to its pixels. A paint starts
/// when the pixels already being painted plus its own fit within `room` times the largest paint seen
/// so far, or when nothing else is painting; else its worker waits.
package final class PaintBudget: @unchecked Sendable {
    /// How many of the largest paints fit at once, at least one; a fraction leaves room for smaller
    /// paints beside them.
    package let room: Double
    private let condition = NSCondition()
    private var painting = 0
    private var largest = 0

    package init(room: Double) {
        self.room = max(1, room)
    }

    /// The budget of a build whose `workers` share `cpus`: room for three quarters of a largest paint
    /// per CPU they use. Painting the largest scale is about half of a card's work and the smaller
    /// scales a tenth more, so busy workers want a little over half a largest paint each on average:
    /// this room keeps the CPUs busy while the largest paints seldom all meet.
    package convenience init(workers: Int, cpus: Int) {
        self.init(room: Double(min(workers, cpus)) * 0.75)
    }

    /// Runs `body`, which paints `pixels`, once the budget has room for them.
    package func paint<Result>(pixels: Int, _ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        largest = max(largest, pixels)
        while painting > 0 && Double(painting + pixels) > room * Double(largest) {
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
