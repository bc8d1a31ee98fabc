import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeHTTP
import CardBakeManifest
import Foundation
import Synchronization
import Vips

/// Whether and how a build may use the network for its photos.
public enum PhotoFetchMode: Sendable {
    /// A photo fetched less than `maxAge` ago is used as it is; an older one is revalidated.
    case normal
    /// Every photo is revalidated now (`--refresh`).
    case refresh
    /// No request at all (`--offline`): what the cache holds is used, however old.
    case offline
}

/// The limits and manners of fetching photos; the defaults suit a CDN.
public struct PhotoFetchSettings: Sendable {
    public var mode: PhotoFetchMode = .normal
    /// A larger body stops its download (`--max-download-size`); 50 MiB.
    public var maxDownloadBytes = 50 << 20
    public var connectTimeout: Duration = .seconds(10)
    /// For a request from start to its last byte (`--fetch-timeout`).
    public var requestTimeout: Duration = .seconds(60)
    /// Downloads from one host (`host:port`) at once.
    public var connectionsPerHost = 4
    /// Downloads at once, over every host.
    public var parallelTransfers = 16
    /// Attempts after the first for a `429` or `503`.
    public var retries = 3
    /// The longest wait before such a retry, whatever `Retry-After` asks.
    public var longestRetryWait: Duration = .seconds(30)
    public var maxRedirects = 5

    public init() {}
}

/// Where a photo's bytes came from this build.
public enum PhotoSource: String, Sendable, Equatable {
    /// Downloaded (a first fetch, or a `200` to a revalidation).
    case fetched
    /// The server confirmed the cached bytes (`304`).
    case revalidated
    /// Taken from the cache without a request (within `maxAge`, or `--offline`).
    case cached
    /// Taken from the cache because fetching failed (with a warning).
    case stale
}

/// A photo ready for the pipeline: a file in the content store.
public struct FetchedPhoto: Sendable, Equatable {
    /// The bytes' file; nil when they are not on this machine but in the remote cache, which a card
    /// that renders gets them from (``PhotoFetcher``'s `bytesFromRemoteLater`).
    public var path: String?
    public var digest: ContentDigest
    public var source: PhotoSource
    /// Bytes downloaded for it this build.
    public var downloadedBytes: Int
    /// When the server last gave or confirmed these bytes.
    public var confirmedAt: Date
    /// Why a cached copy is used: fetching failed with this (``PhotoSource/stale``).
    public var warning: String?

    /// The moment these bytes are due for revalidation under `maxAge`.
    public func freshUntil(maxAge: Duration) -> Date {
        PhotoRecord.freshUntil(confirmedAt: confirmedAt, maxAge: maxAge)
    }
}

/// Why a photo cannot be had: the URL (query and credentials left out) and the cause.
public struct PhotoFetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public init(_ url: String, _ reason: String) {
        self.url = RemoteImageURL.redacted(url)
        self.reason = reason
    }

    public var description: String { "cannot fetch \(url): \(reason)" }
}

/// Fetches photos into the content store, keeping a ``PhotoRecord`` per URL in the action cache.
///
/// A download streams to a scratch file under the byte limit, must decode as an image by its bytes
/// (and declare no more than `maxPixels`), and only then goes into the store: nothing of a bad
/// response is kept. Requests run at most ``PhotoFetchSettings/connectionsPerHost`` at once per host;
/// a `429` or `503` is retried after its `Retry-After` (capped). When fetching fails and a copy is
/// cached, the copy is used (``PhotoSource/stale``).
public final class PhotoFetcher: Sendable {
    private let store: any ArtifactStoring
    private let scratch: URL
    private let settings: PhotoFetchSettings
    private let maxPixels: Int
    private let transport: HTTPTransport
    private let intactFile: @Sendable (ContentDigest) -> String?
    private let bytesFromRemoteLater: Bool
    private let hosts = Mutex([String: AsyncLimiter]())
    private let requests = Atomic(0)

    /// - Parameters:
    ///   - scratchDirectory: a folder on the store's file system, for downloads under way.
    ///   - intactFile: a file holding a blob, if the caller can vouch for one more cheaply than the
    ///     store's ``ArtifactStoring/blobFile(_:)``, which is asked otherwise.
    ///   - bytesFromRemoteLater: the store has a remote tier: a photo whose record is in the cache and
    ///     whose bytes are not on this machine but in the remote cache is answered without them
    ///     (``FetchedPhoto/path`` nil), so that a card the remote cache holds rendered never needs them.
    public init(store: any ArtifactStoring, scratchDirectory: URL, settings: PhotoFetchSettings, maxPixels: Int,
                bytesFromRemoteLater: Bool = false, intactFile: @escaping @Sendable (ContentDigest) -> String? = { _ in nil }) {
        self.store = store
        self.intactFile = intactFile
        self.bytesFromRemoteLater = bytesFromRemoteLater
        scratch = scratchDirectory
        self.settings = settings
        self.maxPixels = maxPixels
        transport = HTTPTransport(connectTimeout: settings.connectTimeout, requestTimeout: settings.requestTimeout,
                                  parallelTransfers: settings.parallelTransfers, threadName: "cardbake photo fetch")
    }

    /// The requests sent so far, retries included.
    public var requestsSent: Int { requests.load(ordering: .relaxed) }

    /// Each of `urls` as a file, or why it cannot be had; `progress` hears of each download done.
    public func fetch(_ urls: Set<String>, maxAge: Duration, now: Date = Date(),
                      progress: @escaping @Sendable (_ downloaded: Int) -> Void = { _ in })
        async -> [String: Result<FetchedPhoto, PhotoFetchFailure>] {
        await withTaskGroup(of: (String, Result<FetchedPhoto, PhotoFetchFailure>).self) { group in
            for url in urls {
                group.addTask { (url, await self.photo(at: url, maxAge: maxAge, now: now)) }
            }
            var results: [String: Result<FetchedPhoto, PhotoFetchFailure>] = [:]
            var downloads = 0
            for await (url, result) in group {
                results[url] = result
                if case .success(let photo) = result, photo.source == .fetched {
                    downloads += 1
                    progress(downloads)
                }
            }
            return results
        }
    }

    /// What the cache's record of `url` says, without a request and without its bytes (which a machine
    /// whose remote cache holds them may never have had): the photo, its file if it is here, and
    /// whether the record is older than `maxAge`; nil when it was never fetched.
    public func cached(_ url: String, maxAge: Duration, now: Date = Date()) async -> (photo: FetchedPhoto, isStale: Bool)? {
        guard let record = await record(for: url) else { return nil }
        var path = intactFile(record.digest)
        if path == nil { path = await store.blobFile(record.digest) }
        return (FetchedPhoto(path: path, digest: record.digest, source: .cached, downloadedBytes: 0,
                             confirmedAt: record.confirmedAt),
                !record.isFresh(maxAge: maxAge, now: now))
    }

    public func shutDown() async {
        await transport.shutDown()
    }

    /// The record of `url` and its bytes' file (nil: in the remote cache, with `bytesFromRemoteLater`);
    /// nil when there is no record or its bytes are nowhere.
    private func cachedRecord(for url: String) async -> (PhotoRecord, String?)? {
        guard let record = await record(for: url) else { return nil }
        if let path = intactFile(record.digest) {
            return (record, path)
        }
        if bytesFromRemoteLater {
            return await store.offersBlob(record.digest) ? (record, nil) : nil
        }
        return await store.blobFile(record.digest).map { (record, $0) }
    }

    private func record(for url: String) async -> PhotoRecord? {
        await store.actionResult(for: PhotoRecord.key(for: url)).flatMap(PhotoRecord.init(cacheBytes:))
    }

    private func photo(at url: String, maxAge: Duration, now: Date) async -> Result<FetchedPhoto, PhotoFetchFailure> {
        let cached = await cachedRecord(for: url)
        if let (record, path) = cached, settings.mode == .offline || (settings.mode == .normal && record.isFresh(maxAge: maxAge, now: now)) {
            return .success(FetchedPhoto(path: path, digest: record.digest, source: .cached, downloadedBytes: 0,
                                         confirmedAt: record.confirmedAt))
        }
        guard settings.mode != .offline else {
            return .failure(PhotoFetchFailure(url, "never fetched, and --offline makes no request"))
        }
        do {
            return .success(try await download(url, revalidating: cached, now: now))
        } catch let failure as PhotoFetchFailure {
            guard let (record, path) = cached else { return .failure(failure) }
            return .success(FetchedPhoto(path: path, digest: record.digest, source: .stale, downloadedBytes: 0,
                                         confirmedAt: record.confirmedAt, warning: "\(failure); using the copy fetched \(Self.age(since: record.fetchedAt, now: now)) ago"))
        } catch {
            return .failure(PhotoFetchFailure(url, "\(error)"))
        }
    }

    /// GETs `url` (conditionally, when the cached `record` has validators) into the store.
    private func download(_ url: String, revalidating cached: (record: PhotoRecord, path: String?)?,
                          now: Date) async throws -> FetchedPhoto {
        let record = cached?.record
        let file = scratch.appendingPathComponent("fetch-\(UUID().uuidString)").fileSystemPath
        defer { try? FileManager.default.removeItem(atPath: file) }
        var request = HTTPRequest(method: "GET", url: url)
        request.headers = record?.conditionalHeaders ?? []
        request.maxRedirects = settings.maxRedirects
        request.bodyFile = file
        request.maxBodyBytes = settings.maxDownloadBytes
        let answer = try await send(request)
        let etag = answer.headers["etag"]
        let lastModified = answer.headers["last-modified"]
        switch answer.status {
        case 304 where record != nil:
            guard var confirmed = record else { preconditionFailure("a 304 answers only a conditional GET") }
            confirmed.fetchedAt = now.timeIntervalSince1970
            if let etag { confirmed.etag = etag }
            if let lastModified { confirmed.lastModified = lastModified }
            try await keep(confirmed, for: url)
            // The copy in the remote cache stays there until a card renders.
            return FetchedPhoto(path: cached?.path, digest: confirmed.digest, source: .revalidated, downloadedBytes: 0,
                                confirmedAt: now)
        case 200:
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw PhotoFetchFailure(url, "cannot read the download: \(error)")
            }
            if let problem = Self.imageProblem(data, maxPixels: maxPixels, contentType: answer.headers["content-type"]) {
                throw PhotoFetchFailure(url, problem)
            }
            let digest = ContentDigest.sha256(data)
            do {
                try await store.storeBlob(data, hashedAs: digest)
                try await keep(PhotoRecord(digest: digest, etag: etag, lastModified: lastModified, fetchedAt: now,
                                           bytes: data.count), for: url)
            } catch {
                throw PhotoFetchFailure(url, "cannot store the photo in the cache: \(error)")
            }
            guard let path = await store.blobFile(digest) else { throw PhotoFetchFailure(url, "the stored photo is gone") }
            return FetchedPhoto(path: path, digest: digest, source: .fetched, downloadedBytes: answer.bodyBytes,
                                confirmedAt: now)
        default:
            throw PhotoFetchFailure(url, "HTTP \(answer.status)")
        }
    }

    private func keep(_ record: PhotoRecord, for url: String) async throws {
        try await store.storeActionResult(record.cacheBytes, for: PhotoRecord.key(for: url))
    }

    /// Sends `request` at most ``PhotoFetchSettings/connectionsPerHost`` at once to its host, retrying
    /// a `429` or `503`; transport errors become a ``PhotoFetchFailure``.
    private func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
        let limiter = limiter(for: request.url)
        var attempt = 0
        while true {
            let answer: HTTPAnswer
            do {
                answer = try await limiter.run {
                    requests.add(1, ordering: .relaxed)
                    return try await transport.send(request)
                }
            } catch let error as HTTPTransportError {
                throw PhotoFetchFailure(request.url, "\(error)")
            }
            guard answer.status == 429 || answer.status == 503, attempt < settings.retries else { return answer }
            let wait = min(answer.retryAfter() ?? .seconds(1 << attempt), settings.longestRetryWait)
            try await Task.sleep(for: wait)
            attempt += 1
        }
    }

    private func limiter(for url: String) -> AsyncLimiter {
        let components = URLComponents(string: url)
        let host = "\(components?.host?.lowercased() ?? ""):\(components?.port ?? 0)"
        return hosts.withLock { hosts in
            if let limiter = hosts[host] { return limiter }
            let limiter = AsyncLimiter(limit: max(1, settings.connectionsPerHost))
            hosts[host] = limiter
            return limiter
        }
    }

    /// Why `data` is no photo a card can use: no decoder recognises it, its header is damaged, or it
    /// declares more than `maxPixels`. Nil when it is one.
    static func imageProblem(_ data: Data, maxPixels: Int, contentType: String?) -> String? {
        let declared = contentType.map { " (its Content-Type says \($0))" } ?? ""
        do {
            try Vips.start()
        } catch {
            return "libvips cannot start: \(error)"
        }
        guard let loader = VipsLoader.recognising(data) else {
            return "not an image: no decoder recognises its bytes\(declared)"
        }
        guard !loader.isBlocked else {
            return "not an image cardbake decodes: \(loader.summary) is refused as untrusted\(declared)"
        }
        let header: VipsImageHeader
        do {
            header = try VipsImage.header(of: data)
        } catch {
            return "not an image: its header does not decode (\(error))"
        }
        guard header.width * header.height <= maxPixels else {
            return "the image declares \(header.width)×\(header.height) pixels, over --max-pixels \(maxPixels)"
        }
        return nil
    }

    /// `3 h`, `2 d`: how long ago `time` (seconds since 1970) was.
    private static func age(since time: Double, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince1970 - time))
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
