import CardBakeFiles
import DequeModule
import Dispatch
import Foundation
import Synchronization
import Vips

/// A fixed number of threads for blocking work (decoding, rendering, hashing files), so that at
/// most that many images are in memory however long the catalog, and async code can wait for
/// the work without blocking a thread of its own. Threads end with libvips' thread shutdown.
///
/// Call ``shutDown()`` when done; work submitted after it is not run.
final class WorkerPool: Sendable {
    /// How many threads run work at once.
    let width: Int
    private let queue = Mutex<Deque<(@Sendable () -> Void)?>>([])
    private let available = DispatchSemaphore(value: 0)

    init(threads: Int) {
        width = max(1, threads)
        for _ in 0..<width {
            let thread = Thread { [self] in
                defer { Vips.threadShutdown() }
                while let job = next() {
                    job()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `body` on one of the threads and returns its result.
    func run<Output: Sendable>(_ body: @escaping @Sendable () throws -> Output) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on every item, on every thread at once; results come back in the items' order.
    /// Items not started when `cancellation` is set are skipped (nil); without one, every item has a result.
    func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], cancellation: Cancellation = Cancellation(),
        _ body: @escaping @Sendable (Item) -> Output
    ) async -> [Output?] {
        let work = SharedWork(items, body)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(width, items.count) {
                group.addTask {
                    _ = try? await self.run { work.runUntilDone(unless: cancellation) }
                }
            }
        }
        return work.results
    }

    /// Lets each thread finish the work it has and end.
    func shutDown() {
        queue.withLock { $0.append(contentsOf: repeatElement(nil, count: width)) }
        for _ in 0..<width {
            available.signal()
        }
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
        available.signal()
    }

    /// The next job, waiting for one; nil tells the thread to end.
    private func next() -> (@Sendable () -> Void)? {
        available.wait()
        return queue.withLock { $0.removeFirst() }
    }
}

/// A list's items taken one at a time by whichever thread is free, and their results.
private final class SharedWork<Item: Sendable, Output: Sendable>: Sendable {
    private let items: [Item]
    private let body: @Sendable (Item) -> Output
    private let next = Atomic<Int>(0)
    private let outputs: Mutex<[Output?]>

    init(_ items: [Item], _ body: @escaping @Sendable (Item) -> Output) {
        self.items = items
        self.body = body
        outputs = Mutex(Array(repeating: nil, count: items.count))
    }

    /// Takes items until none are left or `cancellation` is set.
    func runUntilDone(unless cancellation: Cancellation) {
        while !cancellation.isCancelled {
            let index = next.add(1, ordering: .relaxed).oldValue
            guard index < items.count else { return }
            let output = body(items[index])
            outputs.withLock { $0[index] = output }
        }
    }

    var results: [Output?] { outputs.withLock { $0 } }
}

extension Sequence where Element: Sendable {
    /// `transform` of every element, at most `width` at a time, in the elements' order.
    func concurrentMap<Output: Sendable>(
        width: Int, _ transform: @escaping @Sendable (Element) async -> Output
    ) async -> [Output] {
        let items = Array(self)
        var results = [Output?](repeating: nil, count: items.count)
        var remaining = items.makeIterator()
        await forEachConcurrently(width: width, next: { remaining.next() }, transform) { results[$0] = $1 }
        return results.map { $0! }
    }
}

/// `transform` of each element `next` gives until it gives nil, at most `width` at a time, each output
/// handed to `receive` on the caller's task with its element's offset as soon as it is ready (so not in
/// order). `next` is asked for an element only when one of the `width` places is free.
func forEachConcurrently<Element: Sendable, Output: Sendable>(
    width: Int, next: () async -> Element?, _ transform: @escaping @Sendable (Element) async -> Output,
    receive: (Int, Output) -> Void
) async {
    await withTaskGroup(of: (Int, Output).self) { group in
        var started = 0
        while true {
            if started >= max(1, width), let (done, output) = await group.next() {
                receive(done, output)
            }
            guard let item = await next() else { break }
            group.addTask { [started] in (started, await transform(item)) }
            started += 1
        }
        for await (done, output) in group {
            receive(done, output)
        }
    }
}
