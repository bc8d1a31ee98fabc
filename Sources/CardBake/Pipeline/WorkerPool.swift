import CardBakeFiles
import Dispatch
import Foundation
import Synchronization
import Vips

/// A fixed number of threads working through a list, one item per thread at a time, so at most
/// `workers` images are in memory however long the list. Threads end with libvips' thread shutdown.
enum WorkerPool {
    /// Runs `body` on every item; results come back in the items' order. Items not started when
    /// `cancellation` is set are skipped (nil); without one, every item has a result.
    static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], workers: Int, cancellation: Cancellation = Cancellation(),
        _ body: @escaping @Sendable (Item) -> Output
    ) -> [Output?] {
        let next = Atomic<Int>(0)
        let results = Mutex<[Output?]>(Array(repeating: nil, count: items.count))
        let group = DispatchGroup()
        for _ in 0..<min(max(1, workers), items.count) {
            group.enter()
            let thread = Thread {
                defer {
                    Vips.threadShutdown()
                    group.leave()
                }
                while !cancellation.isCancelled {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < items.count else { return }
                    let output = body(items[index])
                    results.withLock { $0[index] = output }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return results.withLock { $0 }
    }
}
