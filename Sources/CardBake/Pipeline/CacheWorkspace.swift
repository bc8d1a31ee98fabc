import CardBakeCache
import Foundation

/// The cache a build uses: the artifact store behind its action-cache index, and the stat cache,
/// in the cache folder; or in a temporary folder removed afterwards when the build runs without a cache.
struct CacheWorkspace {
    let store: IndexedArtifactStore
    let statCache: StatCache
    private let folder: URL?
    private let temporary: URL?

    init(request: BuildRequest) throws {
        if let cache = request.cache {
            folder = cache
            temporary = nil
            store = IndexedArtifactStore(base: try DiskArtifactStore(root: cache),
                                         loadingIndexFrom: cache.appendingPathComponent(Self.indexFile))
        } else {
            folder = nil
            let scratch = FileManager.default.temporaryDirectory
                .appendingPathComponent("cardbake-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            temporary = scratch
            store = IndexedArtifactStore(base: try DiskArtifactStore(root: scratch), loadingIndexFrom: nil)
        }
        statCache = StatCache(loadingFrom: folder?.appendingPathComponent(Self.statCacheFile))
    }

    /// The stat cache's file name in the cache folder.
    static let statCacheFile = "stat-cache"
    /// The action-cache index's file name in the cache folder.
    static let indexFile = "ac-index"

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
