import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// An ``ArtifactStoring`` that puts a remote cache behind a local store: local first, then remote.
///
/// Every object from the server is verified before it is used or kept: a blob must hash to its
/// name, an action result must pass the checksum that binds it to its key (what the record points
/// to is verified in turn when fetched). An object that fails is refused with a warning and counts
/// as a miss, so the card is rendered again. An intact one is written into the local store.
///
/// Stores go to the local store at once and are uploaded in the background, at most
/// `pendingUploads` at a time (a store waits for a slot); ``finish(within:)`` waits for the rest.
/// The remote never fails a build: a failed request is a miss, and after `failureLimit`
/// consecutive failures the server is not asked again during this build (said once, as a warning).
/// An outage (``RemoteCacheFailure/isOutage``: refused, unknown host, timed out, connection closed)
/// gives the server up at its first failure: the build then takes no longer than without a remote
/// cache, give or take that one request, however many cards it has.
package final class TieredArtifactStore: ArtifactStoring {
    private let local: any ArtifactStoring
    private let remote: RemoteCache
    private let health: RemoteHealth
    private let uploads: UploadQueue
    private let traffic: Mutex<RemoteCacheTraffic>
    private let warn: @Sendable (String) -> Void

    /// - Parameter warn: receives each warning line (a refused object, the server given up on).
    package init(local: any ArtifactStoring, remote: RemoteCache, failureLimit: Int = 3, pendingUploads: Int = 16,
                 warn: @escaping @Sendable (String) -> Void) {
        self.local = local
        self.remote = remote
        self.warn = warn
        health = RemoteHealth(failureLimit: failureLimit)
        uploads = UploadQueue(limit: pendingUploads)
        traffic = Mutex(RemoteCacheTraffic(server: remote.server.displayName, mode: remote.mode.rawValue))
    }

    package func actionResult(for key: ContentDigest) async -> Data? {
        if let record = await local.actionResult(for: key) { return record }
        guard let record = await fetch(.actionCache, key, verify: { $0.removingChecksum(context: key.bytes) }) else {
            return nil
        }
        try? await local.storeActionResult(record, for: key)
        return record
    }

    /// A record the local store already held as it is (fetched from the server, or stored by an
    /// earlier build) is not uploaded again.
    package func storeActionResult(_ record: Data, for key: ContentDigest) async throws {
        let known = await local.actionResult(for: key) == record
        try await local.storeActionResult(record, for: key)
        if !known { await upload(record.appendingChecksum(context: key.bytes), to: .actionCache, as: key) }
    }

    package func blob(_ digest: ContentDigest) async -> Data? {
        if let blob = await local.blob(digest) { return blob }
        return await fetchBlob(digest)
    }

    package func containsBlob(_ digest: ContentDigest) async -> Bool {
        if await local.containsBlob(digest) { return true }
        return await fetchBlob(digest) != nil
    }

    /// Held here, or on the server by its answer to a `HEAD`; false when the server cannot be asked.
    package func offersBlob(_ digest: ContentDigest) async -> Bool {
        if await local.containsBlob(digest) { return true }
        guard remote.mode.reads, !health.isDisabled else { return false }
        do {
            let found = try await remote.server.contains(.content, digest)
            health.succeeded()
            return found
        } catch {
            failed(error)
            return false
        }
    }

    /// The local store's file, fetched from the server (and verified) first when the local store lacks it.
    package func blobFile(_ digest: ContentDigest) async -> String? {
        if let file = await local.blobFile(digest) { return file }
        guard await fetchBlob(digest) != nil else { return nil }
        return await local.blobFile(digest)
    }

    @discardableResult
    package func storeBlob(_ data: Data) async throws -> ContentDigest {
        let digest = try await local.storeBlob(data)
        await upload(data, to: .content, as: digest)
        return digest
    }

    /// Waits for the uploads still running, at most `limit`, cancels any left, and returns what
    /// the build exchanged with the server.
    package func finish(within limit: Duration) async -> RemoteCacheTraffic {
        let abandoned = await uploads.waitForAll(within: limit)
        if abandoned > 0 {
            warn("\(abandoned.counting("upload")) to the remote cache \(remote.server.displayName) "
                 + "did not finish within \(limit) and \(abandoned.word("was", plural: "were")) cancelled; "
                 + "the local cache has \(abandoned.word("it", plural: "them")).")
        }
        return traffic.withLock {
            $0.abandonedUploads = abandoned
            $0.disabled = health.isDisabled
            return $0
        }
    }

    /// Stops the uploads still running, without waiting (a build that failed or was cancelled).
    package func cancelUploads() {
        uploads.cancelAll()
    }

    // MARK: Remote

    private func fetchBlob(_ digest: ContentDigest) async -> Data? {
        guard let blob = await fetch(.content, digest, verify: { ContentDigest.sha256($0) == digest ? $0 : nil }) else {
            return nil
        }
        try? await local.storeBlob(blob, hashedAs: digest)
        return blob
    }

    /// The object at `area/digest` as `verify` accepts it; nil on a miss, a failure or a refusal.
    private func fetch(_ area: RemoteArea, _ digest: ContentDigest, verify: (Data) -> Data?) async -> Data? {
        guard remote.mode.reads, !health.isDisabled else { return nil }
        let body: Data?
        do {
            body = try await remote.server.get(area, digest)
        } catch {
            failed(error)
            return nil
        }
        guard let body else {
            health.succeeded()
            traffic.withLock { $0.misses += 1 }
            return nil
        }
        guard let object = verify(body) else {
            traffic.withLock { $0.refused += 1 }
            warn("the remote cache \(remote.server.displayName) sent \(area.rawValue)/\(digest) damaged or forged "
                 + "(\(body.count.counting("byte")) that fail its \(area == .content ? "SHA-256" : "checksum")); refused, "
                 + "the card is rendered again.")
            failed(nil)
            return nil
        }
        health.succeeded()
        traffic.withLock {
            $0.hits += 1
            $0.downloadedBytes += body.count
        }
        return object
    }

    private func upload(_ data: Data, to area: RemoteArea, as digest: ContentDigest) async {
        guard remote.mode.writes, !health.isDisabled else { return }
        await uploads.add { [self] in
            guard !health.isDisabled else { return }
            do {
                try await remote.server.put(data, in: area, as: digest)
                health.succeeded()
                traffic.withLock {
                    $0.uploads += 1
                    $0.uploadedBytes += data.count
                }
            } catch {
                failed(error)
            }
        }
    }

    /// Counts a failed request (`error` nil for a refused object) and says once when the server is given up.
    private func failed(_ error: (any Error)?) {
        if let outage = error as? RemoteCacheFailure, outage.isOutage {
            // Requests that were waiting for this one fail with it too: not counted, not said again.
            guard health.disable() else { return }
            traffic.withLock { $0.failures += 1 }
            warn("the remote cache \(remote.server.displayName) is unavailable (\(outage)); "
                 + "it is not used for the rest of this build.")
            return
        }
        if error != nil { traffic.withLock { $0.failures += 1 } }
        guard health.failed() else { return }
        warn("the remote cache \(remote.server.displayName) failed \(health.failureLimit) times in a row"
             + (error.map { " (last: \($0))" } ?? "") + "; it is not used for the rest of this build.")
    }
}

/// Consecutive failures of the remote cache, and whether the build gave up on it.
private final class RemoteHealth: Sendable {
    let failureLimit: Int
    private let state = Mutex((consecutiveFailures: 0, disabled: false))

    init(failureLimit: Int) {
        self.failureLimit = failureLimit
    }

    var isDisabled: Bool { state.withLock { $0.disabled } }

    func succeeded() {
        state.withLock { $0.consecutiveFailures = 0 }
    }

    /// Gives the server up at once; true the first time (exactly once, with ``failed()``).
    func disable() -> Bool {
        state.withLock { state in
            guard !state.disabled else { return false }
            state.disabled = true
            return true
        }
    }

    /// Counts a failure; true for the one that disables the server (exactly once).
    func failed() -> Bool {
        state.withLock { state in
            state.consecutiveFailures += 1
            guard !state.disabled, state.consecutiveFailures >= failureLimit else { return false }
            state.disabled = true
            return true
        }
    }
}
