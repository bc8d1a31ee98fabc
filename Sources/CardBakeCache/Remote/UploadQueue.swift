import Synchronization

/// Work running in the background, at most `limit` at once: adding more waits until one ends, so
/// the bytes waiting to be uploaded stay bounded however fast cards are rendered.
final class UploadQueue: Sendable {
    private let places: AsyncLimiter
    private let running = Mutex((tasks: [Int: Task<Void, Never>](), nextID: 0))

    init(limit: Int) {
        places = AsyncLimiter(limit: limit)
    }

    /// Starts `work` in the background once fewer than `limit` are running.
    func add(_ work: @escaping @Sendable () async -> Void) async {
        await places.acquire()
        running.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.tasks[id] = Task { [self] in
                await work()
                running.withLock { $0.tasks[id] = nil }
                places.release()
            }
        }
    }

    /// Waits for the work running now, at most `limit`, then cancels what is left; returns how much was left.
    func waitForAll(within limit: Duration) async -> Int {
        let tasks = running.withLock { Array($0.tasks.values) }
        guard !tasks.isEmpty else { return 0 }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for task in tasks { await task.value }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let allDone = await group.next() ?? true
            let left = allDone ? 0 : running.withLock { $0.tasks.count }
            if !allDone { tasks.forEach { $0.cancel() } }
            group.cancelAll()
            return left
        }
    }

    /// Cancels all work running, without waiting.
    func cancelAll() {
        running.withLock { $0.tasks.values.forEach { $0.cancel() } }
    }
}
