import Foundation

/// Caps the pixels a build's workers paint at once, so that its peak memory does not hang on how
/// many workers happen to paint their largest cards at the same moment (a long build is sure to
/// meet that moment, a short one may not).
///
/// Painting a card at one scale (its layers, the bitmap, the encoded file) takes memory in
/// proportion to its pixels. A paint starts when the pixels already being painted plus its own fit
/// within `painters` times the largest paint seen so far, or when nothing else is painting; else its
/// worker waits. Paints are CPU-bound, so with `painters` at the CPUs this process may use, waiting
/// leaves no CPU idle, while workers beyond it still decode, store and write.
package final class PaintBudget: @unchecked Sendable {
    /// How many of the largest paints may run at once.
    private let painters: Int
    private let condition = NSCondition()
    private var painting = 0
    private var largest = 0

    package init(painters: Int) {
        self.painters = max(1, painters)
    }

    /// Runs `body`, which paints `pixels`, once the budget has room for them.
    package func paint<Result>(pixels: Int, _ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        largest = max(largest, pixels)
        while painting > 0 && painting + pixels > painters * largest {
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
