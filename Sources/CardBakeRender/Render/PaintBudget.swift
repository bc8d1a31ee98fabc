import Foundation

/// Caps what a build's workers paint at once, so that its peak memory does not hang on how
/// many workers happen to paint their largest cards at the same moment (a long build is sure to
/// meet that moment, a short one may not).
///
/// A paint takes memory in proportion to its pixels (the layers it reads back, its encoded bitmap)
/// and to its width (libvips' region buffers, a strip of rows for each operation of its pipeline), so
/// two bounds hold together. A paint starts when the pixels already being painted plus its own fit
/// within `room` times the largest paint seen so far, and fewer than `slots` paints are running; or
/// when nothing else is painting. Else its worker waits.
package final class PaintBudget: @unchecked Sendable {
    /// How many of the largest paints fit at once, at least one; a fraction leaves room for smaller
    /// paints beside them.
    package let room: Double
    /// How many paints run at once, however small, at least one: several small paints hold region
    /// buffers as wide as their widths, more than their pixels say.
    package let slots: Int
    private let condition = NSCondition()
    private var painting = 0
    private var paints = 0
    private var largest = 0

    package init(room: Double, slots: Int = .max) {
        self.room = max(1, room)
        self.slots = max(1, slots)
    }

    /// The budget of a build whose `workers` share `cpus`: a paint per CPU they use, and room for
    /// three quarters of a largest paint per CPU. Painting the largest scale is about half of a card's
    /// work and the smaller scales a tenth more, so busy workers want a little over half a largest
    /// paint each on average: this room keeps the CPUs busy while the largest paints seldom all meet,
    /// and the slots keep the workers left over decoding and storing rather than painting beside them.
    package convenience init(workers: Int, cpus: Int) {
        let used = min(workers, cpus)
        self.init(room: Double(used) * 0.75, slots: used)
    }

    /// Runs `body`, which paints `pixels`, once the budget has room for them.
    package func paint<Result>(pixels: Int, _ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        largest = max(largest, pixels)
        while paints > 0 && (paints >= slots || Double(painting + pixels) > room * Double(largest)) {
            condition.wait()
        }
        painting += pixels
        paints += 1
        condition.unlock()
        defer {
            condition.lock()
            painting -= pixels
            paints -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
