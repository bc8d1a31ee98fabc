import DequeModule
import Synchronization

/// At most `limit` holders at once, for async code: ``acquire()`` waits (without a thread) until a
/// holder calls ``release()``. Waiters are served in order.
package final class AsyncLimiter: Sendable {
    private let limit: Int
    private let state = Mutex((holders: 0, waiting: Deque<CheckedContinuation<Void, Never>>()))

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    package func acquire() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.holders < limit else {
                    state.waiting.append(turn)
                    return false
                }
                state.holders += 1
                return true
            }
            if granted { turn.resume() }
        }
    }

    /// Hands the place to the next waiter, if any.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.holders -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a place.
    package func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
