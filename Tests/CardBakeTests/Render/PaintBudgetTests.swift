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

    /// Runs `body` on `threads` threads of its own at once (not a pool's, which the machine's CPUs would cap).
    func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread { body(); group.leave() }.start()
        }
        group.wait()
    }

    @Test("Equal paints run at most `room` at once, however many workers want to paint")
    func capsEqualPaints() {
        let budget = PaintBudget(room: 2)
        let painting = Painting()
        onThreads(6) { budget.paint(pixels: 900) { painting.paint() } }
        #expect(painting.most <= 2)
    }

    @Test("Paints are weighed by pixels against the largest seen; one larger than the whole budget runs alone")
    func weighsPaintsByPixels() {
        let budget = PaintBudget(room: 1)
        budget.paint(pixels: 900) {}
        // Two of 400 fit in the room of one of 900; a third does not.
        let painting = Painting()
        onThreads(4) { budget.paint(pixels: 400) { painting.paint() } }
        #expect(painting.most <= 2)
        // Larger than anything before, it does not wait for room that could never be made.
        #expect(budget.paint(pixels: 5_000) { true })
    }

    @Test("A fractional room keeps the largest paints apart but lets smaller ones run beside them")
    func fractionalRoom() {
        let budget = PaintBudget(room: 1.5)
        budget.paint(pixels: 900) {}
        let largest = Painting()
        onThreads(4) { budget.paint(pixels: 900) { largest.paint() } }
        #expect(largest.most == 1)
        // Three of 400 fit in one and a half of 900; a fourth does not.
        let smaller = Painting()
        onThreads(6) { budget.paint(pixels: 400) { smaller.paint() } }
        #expect(smaller.most <= 3)
    }

    @Test("A build's room is three quarters of a largest paint per CPU its workers use, at least one")
    func buildRoom() {
        #expect(PaintBudget.room(workers: 3, cpus: 2) == 1.5)
        #expect(PaintBudget.room(workers: 8, cpus: 8) == 6)
        #expect(PaintBudget.room(workers: 2, cpus: 16) == 1.5)
        #expect(PaintBudget.room(workers: 1, cpus: 8) == 1)
    }
}
