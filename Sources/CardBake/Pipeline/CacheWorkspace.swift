import CardBakeCache
import Foundation

/// The cache a build uses: the artifact store behind its action-cache index, and the stat cache,
/// in the cache folder; or in a temporary folder removed afterwards when the build runs without a cache.
/// With a remote cache, the disk store is the first tier of a ``TieredArtifactStore``.
struct CacheWorkspace {
    let store: IndexedArtifactStore
    let statCache: StatCache
    private let folder: URL?
    private let temporary: URL?
    private let remote: TieredArtifactStore?
    private let uploadWait: Duration

    /// - Parameter warn: receives the remote cache's warnings.
    init(request: BuildRequest, warn: @escaping @Sendable (String) -> Void) throws {
        let root: URL
        if let cache = request.cache {
            folder = cache
            temporary = nil
            root = cache
        } else {
            folder = nil
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("cardbake-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            temporary = root
        }
        let disk = try DiskArtifactStore(root: root)
        remote = request.remoteCache.map { TieredArtifactStore(local: disk, remote: $0, warn: warn) }
        uploadWait = request.remoteUploadWait
        store = IndexedArtifactStore(base: remote ?? disk, loadingIndexFrom: folder?.appendingPathComponent(Self.indexFile))
        statCache = StatCache(loadingFrom: folder?.appendingPathComponent(Self.statCacheFile))
    }

    /// The stat cache's file name in the cache folder.
    static let statCacheFile = "stat-cache"
    private static let indexFile = "ac-index"

    /// Keeps the stat cache and the action-cache index for the next build (nothing without a cache
    /// folder); a failure only costs the next build some reading.
    func saveIndexes() {
        saveStatCache()
        guard let folder else { return }
        try? store.save(to: folder.appendingPathComponent(Self.indexFile))
    }

    /// Keeps the stat cache only: what a build found up to date as a whole does, since it looked up
    /// one action result and saving the index would drop the cards' entries from it.
    func saveStatCache() {
        guard let folder else { return }
        try? statCache.save(to: folder.appendingPathComponent(Self.statCacheFile))
    }

    /// Waits (a bounded time) for the uploads to the remote cache still running; what the build
    /// exchanged with it, nil without one.
    func finishRemote() async -> RemoteCacheTraffic? {
        await remote?.finish(within: uploadWait)
    }

    /// Removes the temporary cache folder, and stops uploads a failed build left running.
    func close() {
        remote?.cancelUploads()
        if let temporary {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
