import CardBakeFiles
import Foundation

/// What a build exchanged with the remote cache, for the report and the summary line.
public struct RemoteCacheTraffic: Codable, Sendable, Equatable {
    /// The server, without credentials.
    public var server: String
    public var mode: String
    /// Objects fetched and found intact, and their bytes.
    public var hits = 0
    public var downloadedBytes = 0
    /// Objects the server did not have.
    public var misses = 0
    /// Objects the server sent that failed their check, refused.
    public var refused = 0
    /// Objects uploaded, and their bytes.
    public var uploads = 0
    public var uploadedBytes = 0
    /// Requests that failed after their retries (the server down, slow, or answering errors); after an
    /// outage, only the request that found it (those waiting on it fail with it, uncounted).
    public var failures = 0
    /// Uploads still running when the build stopped waiting for them.
    public var abandonedUploads = 0
    /// True when failures made the build stop using the server.
    public var disabled = false

    public init(server: String, mode: String) {
        self.server = server
        self.mode = mode
    }

    /// `remote cache: 12 hits (1.4 MB down), 3 uploads (310 KB up)`.
    public var summary: String {
        "remote cache: \(hits.counting("hit")) (\(downloadedBytes.byteSize) down), "
            + "\(uploads.counting("upload")) (\(uploadedBytes.byteSize) up)"
            + (disabled ? ", stopped after failures" : "")
    }
}
