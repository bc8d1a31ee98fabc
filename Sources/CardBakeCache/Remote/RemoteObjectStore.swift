import CardBakeManifest
import Foundation

/// The two areas of a remote cache, named as in its URLs (`<base>/ac/<sha256>`, `<base>/cas/<sha256>`).
public enum RemoteArea: String, Sendable {
    /// Action-cache records: a record followed by SHA-256(key ‖ record), as the disk store keeps them.
    case actionCache = "ac"
    /// Content: bytes named by their SHA-256.
    case content = "cas"
}

/// A server that keeps objects by area and digest, such as bazel-remote or nginx with WebDAV.
///
/// It moves bytes and checks nothing: ``TieredArtifactStore`` verifies every object it gets.
/// Implementations bound their own transfers (timeouts, parallel requests, retries).
public protocol RemoteObjectStore: Sendable {
    /// The server as it may be printed: its URL without credentials.
    var displayName: String { get }

    /// The object's bytes; nil when the server does not have it.
    /// - Throws: ``RemoteCacheFailure`` when the server cannot be reached, does not answer in time,
    ///   answers an error, or sends a body that does not match its length.
    func get(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Data?

    /// Whether the server has the object, asked without its bytes (a `HEAD`).
    /// - Throws: ``RemoteCacheFailure`` as ``get(_:_:)``.
    func contains(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Bool

    /// Stores `data` under `digest` in `area`.
    /// - Throws: ``RemoteCacheFailure`` as ``get(_:_:)``.
    func put(_ data: Data, in area: RemoteArea, as digest: ContentDigest) async throws
}

/// Why a request to the remote cache failed; the text never holds credentials.
public struct RemoteCacheFailure: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// The server cannot be used for now: the connection was refused, the host is unknown, the
    /// request timed out, or the server closed the connection. ``TieredArtifactStore`` gives up on
    /// the server at the first such failure rather than after several.
    public let isOutage: Bool

    public init(_ description: String, isOutage: Bool = false) {
        self.description = description
        self.isOutage = isOutage
    }
}

/// What a build may do with the remote cache (`--remote-cache-mode`).
public enum RemoteCacheMode: String, Sendable, CaseIterable {
    /// Fetch what the local cache lacks; upload nothing (an untrusted build, such as a pull request's).
    case read
    /// Upload what this build renders; fetch nothing.
    case write
    /// Both.
    case readwrite

    var reads: Bool { self != .write }
    var writes: Bool { self != .read }
}

/// A remote cache and what a build may do with it.
public struct RemoteCache: Sendable {
    public var server: any RemoteObjectStore
    public var mode: RemoteCacheMode

    public init(server: any RemoteObjectStore, mode: RemoteCacheMode = .readwrite) {
        self.server = server
        self.mode = mode
    }
}
