@testable import CardBake
import Synchronization
import Testing

@Suite("Giving free memory back")
struct FreeMemoryReturnTests {
    @Test("Free memory is given back at most once per interval, the first time at once")
    func givesBackAtMostOncePerInterval() {
        let given = GiveBacks()
        let hourly = FreeMemoryReturn(atMostEvery: .seconds(3600), action: given.count)
        for _ in 0..<3 { hourly.giveBack() }
        #expect(given.total == 1)

        let always = FreeMemoryReturn(atMostEvery: .zero, action: given.count)
        for _ in 0..<3 { always.giveBack() }
        #expect(given.total == 4)
    }
}

/// How many times memory was given back.
private final class GiveBacks: Sendable {
    private let given = Atomic(0)

    func count() {
        given.add(1, ordering: .relaxed)
    }

    var total: Int { given.load(ordering: .relaxed) }
}
