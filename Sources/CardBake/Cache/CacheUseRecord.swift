import CardBakeCache
import CardBakeFiles
import Foundation

/// What the last build in a cache folder found there, for `cardbake cache stats`: written at the
/// end of every build (`last-build.json`), read by nothing else.
public struct CacheUseRecord: Codable, Sendable, Equatable {
    /// When the build ended, in seconds since 1970.
    public var finished: Int64
    public var actionResultHits: Int
    public var actionResultMisses: Int
    public var blobHits: Int
    public var blobMisses: Int
    /// Files whose digest the stat cache answered without reading them, and those it read.
    public var statCacheHits: Int
    public var statCacheMisses: Int

    static let fileName = "last-build.json"

    init(finished: Int64, store: StoreUsage, statCache: StatCache) {
        self.finished = finished
        actionResultHits = store.actionResultHits
        actionResultMisses = store.actionResultMisses
        blobHits = store.blobHits
        blobMisses = store.blobMisses
        statCacheHits = statCache.hits
        statCacheMisses = statCache.misses
    }

    /// The record in the cache folder `folder`; nil when there is none or it cannot be read.
    static func load(from folder: URL) -> CacheUseRecord? {
        let file = try? ReadableFile(path: folder.appendingPathComponent(fileName).fileSystemPath).readToEnd()
        return file.flatMap { try? JSONDecoder().decode(CacheUseRecord.self, from: $0) }
    }

    func save(in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFileWriter.write(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName))
    }
}
