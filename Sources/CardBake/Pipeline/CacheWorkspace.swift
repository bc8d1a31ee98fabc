import CardBakeCache
import Foundation

/// The cache a build uses: the artifact store behind its action-cache index, and the stat cache,
/// in the cache folder; or, when the build runs without a cache, in a scratch folder removed afterwards.
///
/// The scratch folder is `.cardbake-scratch` in the output folder, which the build holds locked: one
/// that a killed build left there is removed by the next build of that folder, with a cache or without.
struct CacheWorkspace {
    let store: IndexedArtifactStore
    let statCache: StatCache
    private let folder: URL?
    private let temporary: URL?

    /// Call holding the lock on `request`'s output folder.
    init(request: BuildRequest) throws {
        let scratch = request.output.appendingPathComponent(Self.scratchFolder)
        try? FileManager.default.removeItem(at: scratch)
        if let cache = request.cache {
            folder = cache
            temporary = nil
            store = IndexedArtifactStore(base: try DiskArtifactStore(root: cache),
                                         loadingIndexFrom: cache.appendingPathComponent(Self.indexFile))
        } else {
            folder = nil
            temporary = scratch
            store = IndexedArtifactStore(base: try DiskArtifactStore(root: scratch), loadingIndexFrom: nil)
        }
        statCache = StatCache(loadingFrom: folder?.appendingPathComponent(Self.statCacheFile))
    }

    /// The stat cache's file name in the cache folder.
    static let statCacheFile = "stat-cache"
    /// The action-cache index's file name in the cache folder.
    static let indexFile = "ac-index"
    /// The scratch store's folder, in the output folder.
    static let scratchFolder = ".cardbake-scratch"

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

    func close() {
        if let temporary {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
