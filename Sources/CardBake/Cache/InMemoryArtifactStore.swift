import Foundation
import Synchronization

/// An ``ArtifactStoring`` kept in memory for the life of the value: for tests, and for builds
/// that must not read or leave a cache on disk.
public final class InMemoryArtifactStore: ArtifactStoring {
    private struct Contents {
        var actionResults: [Digest: Data] = [:]
        var blobs: [Digest: Data] = [:]
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    public func actionResult(for key: Digest) -> Data? {
        contents.withLock { $0.actionResults[key] }
    }

    public func storeActionResult(_ record: Data, for key: Digest) {
        contents.withLock { $0.actionResults[key] = record }
    }

    public func blob(_ digest: Digest) -> Data? {
        contents.withLock { $0.blobs[digest] }
    }

    @discardableResult
    public func storeBlob(_ data: Data) -> Digest {
        let digest = Digest.sha256(data)
        contents.withLock { $0.blobs[digest] = data }
        return digest
    }
}
