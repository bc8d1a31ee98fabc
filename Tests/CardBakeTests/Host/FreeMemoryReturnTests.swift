@testable import CardBake
import Testing

@Suite("Giving free memory back")
struct FreeMemoryReturnTests {
    @Test("Free memory is given back at most once per interval, the first time at once")
    func givesBackAtMostOncePerInterval() {
        let given = Counter()
        let hourly = FreeMemoryReturn(atMostEvery: .seconds(3600), action: { _ = given.increment() })
        for _ in 0..<3 { hourly.giveBack() }
        #expect(given.count == 1)

        let always = FreeMemoryReturn(atMostEvery: .zero, action: { _ = given.increment() })
        for _ in 0..<3 { always.giveBack() }
        #expect(given.count == 4)
    }
}
