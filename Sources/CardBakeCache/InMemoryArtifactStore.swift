import CardBakeManifest
import Foundation
import Synchronization

/// An ``ArtifactStoring`` kept in memory for the life of the value: for tests, and for builds
/// that must not read or leave a cache on disk.
public final class InMemoryArtifactStore: ArtifactStoring {
    private struct Contents {
        var actionResults: [ContentDigest: Data] = [:]
        var blobs: [ContentDigest: Data] = [:]
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    public func actionResult(for key: ContentDigest) -> Data? {
        contents.withLock { $0.actionResults[key] }
    }

    public func storeActionResult(_ record: Data, for key: ContentDigest) {
        contents.withLock { $0.actionResults[key] = record }
    }

    public func blob(_ digest: ContentDigest) -> Data? {
        contents.withLock { $0.blobs[digest] }
    }

    public func containsBlob(_ digest: ContentDigest) -> Bool {
        contents.withLock { $0.blobs[digest] != nil }
    }

    @discardableResult
    public func storeBlob(_ data: Data) -> ContentDigest {
        let digest = ContentDigest.sha256(data)
        contents.withLock { $0.blobs[digest] = data }
        return digest
    }
}
