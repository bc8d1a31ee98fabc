@testable import CardBakeRender
import Foundation
import Synchronization
import Testing

@Suite("Paint budget")
struct PaintBudgetTests {
    /// How many paints run at once, and the most that ever did.
    final class Painting: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }

        func paint() {
            counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            Thread.sleep(forTimeInterval: 0.02)
            counts.withLock { $0.now -= 1 }
        }
    }

    /// The most paints of `pixels` that ran at once in `budget`, wanted by `threads` threads of their
    /// own at once (not a pool's, which the machine's CPUs would cap).
    func mostAtOnce(paintsOf pixels: Int, onThreads threads: Int, in budget: PaintBudget) -> Int {
        let painting = Painting()
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread { budget.paint(pixels: pixels) { painting.paint() }; group.leave() }.start()
        }
        group.wait()
        return painting.most
    }

    @Test("Equal paints run at most `room` at once, however many workers want to paint")
    func capsEqualPaints() {
        #expect(mostAtOnce(paintsOf: 900, onThreads: 6, in: PaintBudget(room: 2)) <= 2)
    }

    @Test("Paints are weighed by pixels against the largest seen; one larger than the whole budget runs alone")
    func weighsPaintsByPixels() {
        let budget = PaintBudget(room: 1)
        budget.paint(pixels: 900) {}
        // Two of 400 fit in the room of one of 900; a third does not.
        #expect(mostAtOnce(paintsOf: 400, onThreads: 4, in: budget) <= 2)
        // Larger than anything before, it does not wait for room that could never be made.
        #expect(budget.paint(pixels: 5_000) { true })
    }

    @Test("A fractional room keeps the largest paints apart but lets smaller ones run beside them")
    func fractionalRoom() {
        let budget = PaintBudget(room: 1.5)
        budget.paint(pixels: 900) {}
        #expect(mostAtOnce(paintsOf: 900, onThreads: 4, in: budget) == 1)
        // Three of 400 fit in one and a half of 900; a fourth does not.
        #expect(mostAtOnce(paintsOf: 400, onThreads: 6, in: budget) <= 3)
    }

    @Test("Paints within the free pixels run side by side, however large the room makes the largest")
    func freePixels() {
        let budget = PaintBudget(room: 1, freePixels: 2_000)
        let second = DispatchSemaphore(value: 0)
        // With room for one paint of 900 only, the second would wait for the first, which waits for it.
        let ranTogether = budget.paint(pixels: 900) {
            Thread { budget.paint(pixels: 900) { _ = second.signal() } }.start()
            return second.wait(timeout: .now() + 10) == .success
        }
        #expect(ranTogether)
        #expect(mostAtOnce(paintsOf: 900, onThreads: 4, in: budget) <= 2)
        #expect(PaintBudget(workers: 3, cpus: 2).freePixels == 2_000_000)
    }

    @Test("A build's room is one and a half largest paints per CPU its workers use")
    func buildRoom() {
        #expect(PaintBudget(workers: 3, cpus: 2).room == 3)
        #expect(PaintBudget(workers: 8, cpus: 8).room == 12)
        #expect(PaintBudget(workers: 2, cpus: 16).room == 3)
        #expect(PaintBudget(workers: 1, cpus: 8).room == 1.5)
    }
}
