@testable import CardBake
import Synchronization
import Testing

@Suite("Giving free memory back")
struct FreeMemoryReturnTests {
    final class Count: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test("Free memory is given back at most once per interval, the first time at once")
    func givesBackAtMostOncePerInterval() {
        let given = Count()
        let hourly = FreeMemoryReturn(atMostEvery: .seconds(3600), action: given.add)
        for _ in 0..<3 { hourly.giveBack() }
        #expect(given.value == 1)

        let always = FreeMemoryReturn(atMostEvery: .zero, action: given.add)
        for _ in 0..<3 { always.giveBack() }
        #expect(given.value == 4)
    }
}
