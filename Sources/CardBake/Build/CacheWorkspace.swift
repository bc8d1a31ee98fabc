import Foundation

/// The cache a build uses: the artifact store and the stat cache, in the cache folder, or in a
/// temporary folder removed afterwards when the build runs without a cache.
struct CacheWorkspace {
    let store: any ArtifactStoring
    let statCache: StatCache
    private let statCacheFile: URL?
    private let temporary: URL?

    init(request: BuildRequest) throws {
        if let cache = request.cache {
            statCacheFile = cache.appendingPathComponent("stat-cache")
            temporary = nil
            store = try DiskArtifactStore(root: cache)
        } else {
            statCacheFile = nil
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("cardbake-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            temporary = folder
            store = try DiskArtifactStore(root: folder)
        }
        statCache = StatCache(loadingFrom: statCacheFile)
    }

    /// Keeps the stat cache for the next build (nothing without a cache folder); a failure only costs re-hashing.
    func saveStatCache() {
        guard let statCacheFile else { return }
        try? statCache.save(to: statCacheFile)
    }

    func close() {
        if let temporary {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
