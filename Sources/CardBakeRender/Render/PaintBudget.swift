import Foundation

/// Caps the memory a build's workers take at once in their largest phases, decoding a source and
/// painting a card, so that a build's peak does not hang on how many workers happen to be at their
/// largest at the same moment (a long build is sure to meet that moment, a short one may not).
///
/// At most `slots` decodes and paints run at once. A paint also needs room: painting and encoding a
/// card at one scale takes memory in proportion to its pixels, so a paint starts only when the pixels
/// already being painted plus its own fit within `room` times the largest paint seen so far, or when
/// nothing else is painting. A worker that finds no slot or no room waits.
package final class PaintBudget: @unchecked Sendable {
    /// How many of the largest paints fit at once, at least one; a fraction leaves room for smaller
    /// paints beside them.
    package let room: Double
    /// How many decodes and paints run at once, at least one.
    package let slots: Int
    private let condition = NSCondition()
    private var running = 0
    private var painting = 0
    private var largest = 0

    package init(room: Double, slots: Int = .max) {
        self.room = max(1, room)
        self.slots = max(1, slots)
    }

    /// The budget of a build whose `workers` share `cpus`: a slot per CPU they use, and room for
    /// three quarters of a largest paint per CPU. Decoding and painting are what keep a CPU busy, so
    /// a slot per CPU leaves none idle while a worker beyond them stores, writes or waits. Painting
    /// the largest scale is about half of a card's work and the smaller scales a tenth more, so busy
    /// workers want a little over half a largest paint each on average: this room keeps the CPUs busy
    /// while the largest paints seldom all meet.
    package convenience init(workers: Int, cpus: Int) {
        let busy = min(workers, cpus)
        self.init(room: Double(busy) * 0.75, slots: busy)
    }

    /// Runs `body`, which paints `pixels`, once the budget has a slot and room for them.
    package func paint<Result>(pixels: Int, _ body: () throws -> Result) rethrows -> Result {
        try admitted(body) {
            largest = max(largest, pixels)
            guard running < slots, painting == 0 || Double(painting + pixels) <= room * Double(largest) else {
                return false
            }
            painting += pixels
            return true
        } leaving: {
            painting -= pixels
        }
    }

    /// Runs `body`, which decodes a source, once the budget has a slot.
    package func decode<Result>(_ body: () throws -> Result) rethrows -> Result {
        try admitted(body) { running < slots } leaving: {}
    }

    /// Waits until `enter` (called under the lock) admits the phase, runs `body`, then lets the
    /// waiting workers look again after `leave`.
    private func admitted<Result>(_ body: () throws -> Result, entering enter: () -> Bool,
                                  leaving leave: () -> Void) rethrows -> Result {
        condition.lock()
        while !enter() {
            condition.wait()
        }
        running += 1
        condition.unlock()
        defer {
            condition.lock()
            running -= 1
            leave()
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
