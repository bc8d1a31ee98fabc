@testable import CardBake
import Synchronization
import Testing

@Suite("Giving free memory back")
struct FreeMemoryReturnTests {
    @Test("Free memory is given back only while the allocator holds more than the bound")
    func givesBackOnlyPastTheBound() {
        let held = Atomic(0)
        let given = Atomic(0)
        let memory = FreeMemoryReturn(whenHoldingMoreThan: 64 << 20, freeHeld: { held.load(ordering: .relaxed) },
                                      action: { given.add(1, ordering: .relaxed) })
        for free in [0, 32 << 20, 64 << 20] {
            held.store(free, ordering: .relaxed)
            memory.giveBack()
        }
        #expect(given.load(ordering: .relaxed) == 0)
        held.store((64 << 20) + 1, ordering: .relaxed)
        memory.giveBack()
        memory.giveBack()
        #expect(given.load(ordering: .relaxed) == 2)
    }
}
