import CardBakeCache
import CardBakeManifest
import Foundation

/// What a build knows of one photo URL: the digest of the bytes last fetched (in the content store)
/// and the validators the server sent with them, kept in the action cache under ``key(for:)`` (and so
/// in a remote cache too).
package struct PhotoRecord: Codable, Sendable, Equatable {
    package var digest: ContentDigest
    package var etag: String?
    package var lastModified: String?
    /// When the server last gave or confirmed these bytes (seconds since 1970).
    package var fetchedAt: Double
    package var bytes: Int

    package init(digest: ContentDigest, etag: String?, lastModified: String?, fetchedAt: Date, bytes: Int) {
        self.digest = digest
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt.timeIntervalSince1970
        self.bytes = bytes
    }

    /// The action-cache key of `url`'s record.
    package static func key(for url: String) -> ContentDigest {
        var fingerprint = Fingerprint(domain: "remote-photo")
        fingerprint.add("url", url)
        return fingerprint.digest
    }

    package init?(cacheBytes: Data) {
        guard let record = try? JSONDecoder().decode(PhotoRecord.self, from: cacheBytes) else { return nil }
        self = record
    }

    package var cacheBytes: Data {
        // Encoding a struct of strings and numbers cannot fail.
        try! JSONEncoder().encode(self)
    }

    /// When the server last gave or confirmed the bytes.
    package var confirmedAt: Date { Date(timeIntervalSince1970: fetchedAt) }

    /// Whether the bytes were fetched or confirmed less than `maxAge` before `now`.
    package func isFresh(maxAge: Duration, now: Date) -> Bool {
        now < Self.freshUntil(confirmedAt: confirmedAt, maxAge: maxAge)
    }

    /// The moment bytes confirmed at `confirmedAt` are due for revalidation.
    package static func freshUntil(confirmedAt: Date, maxAge: Duration) -> Date {
        confirmedAt.addingTimeInterval(Double(maxAge.components.seconds))
    }

    /// The headers of a conditional GET for these bytes.
    package var conditionalHeaders: [String] {
        [etag.map { "If-None-Match: \($0)" }, lastModified.map { "If-Modified-Since: \($0)" }].compactMap { $0 }
    }
}
