import CardBakeManifest
import Foundation

/// A build cache in two parts, after the Bazel remote-cache protocol (`/ac/<key>`, `/cas/<sha256>`).
///
/// The action cache maps the key of a piece of work (a ``Fingerprint`` digest) to a small record
/// of its result, which typically names blobs by digest. The content-addressed store keeps the
/// blobs themselves under the SHA-256 of their bytes. Reads never throw: anything that cannot
/// be read intact is a miss, and the caller redoes the work.
///
/// The methods are `async` so that a store across a network (an HTTP tier in front of the disk)
/// suspends instead of holding a render thread, and a build runs many look-ups and uploads at
/// once while its threads render. A store on a local disk simply does its short reads and writes
/// in place.
public protocol ArtifactStoring: Sendable {
    /// Action cache: the record stored under `key`; nil on a miss or if the entry fails its integrity check.
    func actionResult(for key: ContentDigest) async -> Data?

    /// Stores `record` under `key`, replacing any earlier record.
    func storeActionResult(_ record: Data, for key: ContentDigest) async throws

    /// Content-addressed store: the blob whose SHA-256 is `digest`; nil if absent or damaged
    /// (a damaged entry is also removed).
    func blob(_ digest: ContentDigest) async -> Data?

    /// Whether ``blob(_:)`` would return the blob intact now; a damaged entry is removed and answers
    /// false. A tier may fetch the blob to answer, so that the later read is local.
    func containsBlob(_ digest: ContentDigest) async -> Bool

    /// Whether the store holds the blob or can fetch it, known without fetching its bytes (a remote
    /// tier is asked with a `HEAD`): for a caller that may never need them. A blob offered may still
    /// fail verification when it is fetched (``blobFile(_:)`` is then nil).
    func offersBlob(_ digest: ContentDigest) async -> Bool

    /// The path of a file on this machine that holds the blob whose SHA-256 is `digest`, found intact
    /// now (hashed, or unchanged since this process hashed it), for a caller that links or copies it
    /// rather than reading it; nil when the store keeps no such file or it is absent or damaged (a
    /// damaged one is removed). Someone else may hold a hard link to the file: check it again before
    /// each use.
    func blobFile(_ digest: ContentDigest) async -> String?

    /// Stores `data` under its SHA-256 and returns that digest; storing an existing blob again is cheap.
    @discardableResult
    func storeBlob(_ data: Data) async throws -> ContentDigest

    /// Stores `data`, whose SHA-256 the caller has just computed and found to be `digest` (a blob
    /// fetched and verified), without hashing it again where the store can.
    func storeBlob(_ data: Data, hashedAs digest: ContentDigest) async throws
}

extension ArtifactStoring {
    /// ``containsBlob(_:)``: a store without a remote tier has the bytes at hand.
    public func offersBlob(_ digest: ContentDigest) async -> Bool {
        await containsBlob(digest)
    }

    /// None: the store keeps no files of its own (in memory).
    public func blobFile(_ digest: ContentDigest) async -> String? { nil }

    public func storeBlob(_ data: Data, hashedAs digest: ContentDigest) async throws {
        try await storeBlob(data)
    }
}
