import Synchronization

/// A thread-safe count of finished items.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// The count so far.
    var count: Int {
        value.load(ordering: .relaxed)
    }

    /// Adds one and returns the new count.
    func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
