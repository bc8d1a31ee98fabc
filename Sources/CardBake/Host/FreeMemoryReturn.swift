import CMalloc
import Synchronization

/// Gives the memory that glibc's allocator holds free back to the system, at most once per interval.
///
/// glibc returns a freed block to the system only from the top of its heaps; what is freed below
/// live blocks stays resident. Render workers free buffers of many sizes, so without this a long
/// build's peak creeps up with the catalog (bench/README.md, "Memory: what sets the peak").
final class FreeMemoryReturn: Sendable {
    private let interval: Duration
    private let action: @Sendable () -> Void
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    /// `action` is what gives memory back; glibc's `malloc_trim` unless a test replaces it.
    init(atMostEvery interval: Duration, action: @escaping @Sendable () -> Void = { malloc_trim(0) }) {
        self.interval = interval
        self.action = action
    }

    /// Gives free memory back unless that was done less than the interval ago.
    func giveBack() {
        let now = ContinuousClock.now
        let due = last.withLock { last in
            guard last.map({ now - $0 >= interval }) ?? true else { return false }
            last = now
            return true
        }
        if due { action() }
    }
}
