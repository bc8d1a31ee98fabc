import CardBakeCache
import Foundation
import Synchronization

/// The cache a build uses: the artifact store behind its action-cache index, and the stat cache,
/// in the cache folder; or, when the build runs without a cache, in a scratch folder removed afterwards.
/// With a remote cache, the disk store is the first tier of a ``TieredArtifactStore``.
///
/// The scratch folder is `.cardbake-scratch` in the output folder, which the build holds locked: one
/// that a killed build left there is removed by the next build of that folder, with a cache or without.
struct CacheWorkspace {
    let store: IndexedArtifactStore
    let statCache: StatCache
    /// The store on disk under ``store``: its files are where fetched photos are read from.
    let disk: DiskArtifactStore
    /// Text coverage kept between builds (``TextCoverageMemo``), in a file of its own rather than the
    /// action cache: a layout is quick to redo and belongs to this machine's fonts, so it is neither
    /// collected with the cache's entries nor sent to a remote cache. Like the action-cache index, it
    /// is read when first used: a build found up to date as a whole plans nothing.
    let textCoverage: IndexedArtifactStore
    private let folder: URL?
    private let temporary: URL?
    /// The cache folder, or the scratch folder of a build without one: where a build's spools go.
    let scratchDirectory: URL
    /// The size the cache is collected down to at the end of a build that ran its stages.
    private let maxBytes: Int64?
    private let remote: TieredArtifactStore?
    private let uploadWait: Duration

    /// Call holding the lock on `request`'s output folder.
    /// - Parameters:
    ///   - savedStatCache: the stat cache's file (``statCacheFile(for:)``) read earlier, used if it is still that file.
    ///   - warn: receives the remote cache's warnings.
    init(request: BuildRequest, savedStatCache: StatCache.SavedFile, warn: @escaping @Sendable (String) -> Void) throws {
        let scratch = request.output.appendingPathComponent(Self.scratchFolder)
        try? FileManager.default.removeItem(at: scratch)
        let root: URL
        if let cache = request.cache {
            folder = cache
            temporary = nil
            root = cache
        } else {
            folder = nil
            root = scratch
            temporary = scratch
        }
        scratchDirectory = root
        let disk = try DiskArtifactStore(root: root)
        self.disk = disk
        remote = request.remoteCache.map { TieredArtifactStore(local: disk, remote: $0, warn: warn) }
        uploadWait = request.remoteUploadWait
        store = IndexedArtifactStore(base: remote ?? disk, loadingIndexFrom: folder?.appendingPathComponent(Self.indexFile))
        statCache = StatCache(loading: savedStatCache)
        textCoverage = IndexedArtifactStore(base: InMemoryArtifactStore(),
                                            loadingIndexFrom: folder?.appendingPathComponent(Self.textCoverageFile))
        maxBytes = request.cacheMaxBytes
    }

    /// The stat cache's file name in the cache folder.
    static let statCacheFile = "stat-cache"

    /// The stat cache's file of a build of `request`; nil when it runs without a cache.
    static func statCacheFile(for request: BuildRequest) -> URL? {
        request.cache?.appendingPathComponent(statCacheFile)
    }
    /// The action-cache index's file name in the cache folder: the action results the last build
    /// that ran its stages used, which garbage collection protects.
    static let indexFile = "ac-index"
    /// The text coverage's file name in the cache folder: the texts the last build that ran its stages planned.
    static let textCoverageFile = "text-coverage"
    /// The scratch store's folder, in the output folder.
    static let scratchFolder = ".cardbake-scratch"

    /// Ends a build that ran its stages: keeps the stat cache, the action-cache index, the time of
    /// use of every entry it used and its hit rates for the next build and for `cache gc` and
    /// `cache stats`; then, with a size limit, collects the cache down to it. A failure to save only costs the next build some reading, or some order of
    /// collection; a collection that fails leaves the cache as it was. Returns what was collected.
    func finishBuild() async -> CacheCollection? {
        guard let folder else { return nil }
        let now = Int64(Date().timeIntervalSince1970)
        let (statCache, store, textCoverage) = (statCache, store, textCoverage)
        // Files of their own, written at once.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? statCache.save(to: folder.appendingPathComponent(Self.statCacheFile)) }
            group.addTask { try? store.save(to: folder.appendingPathComponent(Self.indexFile)) }
            group.addTask { try? textCoverage.save(to: folder.appendingPathComponent(Self.textCoverageFile)) }
            group.addTask {
                var uses = CacheEntryUses(loadingFrom: folder)
                uses.recordBuild(using: store.forEachUsedEntry, at: now)
                try? uses.save(in: folder)
            }
        }
        try? CacheUseRecord(finished: now, store: store.usage, statCache: statCache).save(in: folder)
        guard let maxBytes else { return nil }
        return try? CacheMaintenance.collect(in: folder, limit: CacheLimit(maxBytes: maxBytes), now: now)
    }

    /// Ends a build found up to date as a whole: keeps the stat cache and the hit rates only. It
    /// looked up one action result; saving the index would drop the cards' entries from it, and
    /// they stay protected as those of the last build that ran its stages. It stored nothing, so
    /// the cache needs no collection.
    func finishWholeBuild() {
        guard let folder else { return }
        try? statCache.save(to: folder.appendingPathComponent(Self.statCacheFile))
        try? CacheUseRecord(finished: Int64(Date().timeIntervalSince1970), store: store.usage, statCache: statCache)
            .save(in: folder)
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
