import Synchronization

/// A flag a signal handler sets and workers poll between steps; cancelled work leaves nothing half written.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    private let parent: Cancellation?

    public init() {
        parent = nil
    }

    /// A cancellation that is also cancelled whenever `parent` is; cancelling it leaves `parent` alone.
    package init(following parent: Cancellation) {
        self.parent = parent
    }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) || parent?.isCancelled == true }

    public func cancel() {
        flag.store(true, ordering: .releasing)
    }

    /// Throws ``BuildCancelled`` once cancelled.
    package func check() throws(BuildCancelled) {
        if isCancelled { throw BuildCancelled() }
    }
}

/// The build was cancelled (SIGINT or SIGTERM); nothing in the output folder was changed.
public struct BuildCancelled: Error, Sendable, CustomStringConvertible {
    public var description: String { "build cancelled; the output folder was left as it was" }
}
