import CardBakeCache
import Synchronization
import Testing

@Suite("AsyncLimiter")
struct AsyncLimiterTests {
    /// How many hold a place now, the most that held one at once, and how many have finished.
    final class Holders: Sendable {
        let counts = Mutex((now: 0, most: 0, finished: 0))
    }

    @Test("Never more than the limit hold a place at once, and every waiter gets one", arguments: [1, 3])
    func bound(limit: Int) async {
        let limiter = AsyncLimiter(limit: limit)
        let holders = Holders()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    await limiter.run {
                        holders.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        await Task.yield()
                        holders.counts.withLock { $0.now -= 1; $0.finished += 1 }
                    }
                }
            }
        }
        let counts = holders.counts.withLock { $0 }
        #expect(counts.most <= limit)
        #expect(counts.most >= 1)
        #expect(counts.finished == 40)
        #expect(counts.now == 0)
    }
}
