import CardBakeCache
import CardBakeFiles
import Foundation

/// `cardbake cache stats` and `cardbake cache gc`: what a cache folder holds, and shrinking it.
public enum CacheMaintenance {
    /// What the cache folder holds and what its last build found there, read under a lock shared
    /// with checks (a build or a collection in progress is waited for); nothing is written. A
    /// missing folder is an empty cache.
    ///
    /// - Throws: ``CacheError`` for a folder of another version, ``LockTimeout`` after `lockTimeout`.
    public static func statistics(of folder: URL, lockTimeout: Duration?,
                                  waiting: (URL, LockHolder) -> Void = { _, _ in }) throws -> CacheStatistics {
        let lock = try WorkspaceLock(folders: [folder], mode: .shared, creating: false, timeout: lockTimeout,
                                     cancellation: Cancellation(), waiting: waiting)
        defer { lock.release() }
        guard FileManager.default.fileExists(atPath: folder.path) else { return CacheStatistics() }
        let store = try DiskArtifactStore(readingFrom: folder)
        let inventory = CacheInventory(store: store, uses: CacheEntryUses(loadingFrom: folder))
        let now = Int64(Date().timeIntervalSince1970)
        return CacheStatistics(actionResults: inventory.count(.actionResult), blobs: inventory.count(.blob),
                               bytes: inventory.totalBytes,
                               oldestAge: inventory.items.values.map(\.lastUse).min().map { max(0, now - $0) },
                               lastBuild: CacheUseRecord.load(from: folder))
    }

    /// Removes entries from the cache folder, least recently used first, until it holds at most
    /// `maxBytes` and nothing unused for longer than `maxAge`, holding the folder locked as a build
    /// does. The action results the last build that ran its stages used, and the blobs they name,
    /// are removed only when `maxBytes` cannot be met without them. `removing` is called with each
    /// entry (`ac/<key>` or `cas/<digest>`) and its size just before it is removed.
    ///
    /// - Throws: ``CacheError`` for a folder of another version, ``LockTimeout`` after `lockTimeout`,
    ///   ``FileSystemError`` when the folder's index cannot be rewritten (nothing is removed then).
    public static func collect(_ folder: URL, maxBytes: Int64?, maxAge: Duration?, lockTimeout: Duration?,
                               waiting: (URL, LockHolder) -> Void = { _, _ in },
                               removing: (_ entry: String, _ bytes: Int64) -> Void = { _, _ in }) throws -> CacheCollection {
        let lock = try WorkspaceLock(collecting: folder, timeout: lockTimeout, waiting: waiting)
        defer { lock.release() }
        guard FileManager.default.fileExists(atPath: folder.path) else { return CacheCollection() }
        return try collect(in: folder, limit: CacheLimit(maxBytes: maxBytes, maxAge: maxAge?.components.seconds),
                           now: Int64(Date().timeIntervalSince1970), removing: removing)
    }

    /// ``collect(_:maxBytes:maxAge:lockTimeout:waiting:removing:)`` for a caller that holds the folder's lock.
    static func collect(in folder: URL, limit: CacheLimit, now: Int64,
                        removing: (_ entry: String, _ bytes: Int64) -> Void = { _, _ in }) throws -> CacheCollection {
        let indexFile = folder.appendingPathComponent(CacheWorkspace.indexFile)
        let collector = CacheCollector(store: try DiskArtifactStore(root: folder), indexFile: indexFile,
                                       references: ArtifactReferences.blobs(namedBy:))
        let outcome = try collector.collect(limit, protecting: IndexedArtifactStore.keys(inIndexAt: indexFile),
                                            now: now) { removing($0.id.description, $0.bytes) }
        return CacheCollection(removedEntries: outcome.removedActionResults + outcome.removedBlobs,
                               removedBytes: outcome.removedBytes, keptEntries: outcome.keptEntries,
                               keptBytes: outcome.keptBytes)
    }
}

/// What a cache folder holds (`cardbake cache stats`).
public struct CacheStatistics: Sendable, Equatable, CustomStringConvertible {
    public var actionResults = 0
    public var blobs = 0
    /// The entries' files' sizes together.
    public var bytes: Int64 = 0
    /// Seconds since the least recently used entry was last used; nil for an empty cache.
    public var oldestAge: Int64?
    /// What the last build found in the cache; nil when no build recorded it.
    public var lastBuild: CacheUseRecord?

    public var description: String {
        var lines = ["entries: \(actionResults + blobs) (\(actionResults.counting("action result")), \(blobs.counting("blob"))), "
                     + "\(bytes.counting("byte")) (\(ByteCount.text(bytes)))"]
        lines.append("least recently used: " + (oldestAge.map { "\(AgeText.text(seconds: $0)) ago" } ?? "none"))
        if let build = lastBuild {
            let ended = Date(timeIntervalSince1970: TimeInterval(build.finished)).formatted(.iso8601)
            lines.append("last build (ended \(ended)):")
            lines.append("  action results: " + Self.rate(build.actionResultHits, build.actionResultMisses))
            lines.append("  blobs: " + Self.rate(build.blobHits, build.blobMisses))
            lines.append("  stat cache: " + Self.rate(build.statCacheHits, build.statCacheMisses))
        } else {
            lines.append("last build: none recorded")
        }
        return lines.joined(separator: "\n")
    }

    private static func rate(_ hits: Int, _ misses: Int) -> String {
        let total = hits + misses
        let percent = total == 0 ? "no look-ups" : String(format: "%.1f %% hits", 100 * Double(hits) / Double(total))
        return "\(hits.counting("hit")), \(misses.counting("miss", plural: "misses")) (\(percent))"
    }
}

/// What a garbage collection of the cache removed and left.
public struct CacheCollection: Codable, Sendable, Equatable, CustomStringConvertible {
    public var removedEntries = 0
    public var removedBytes: Int64 = 0
    public var keptEntries = 0
    public var keptBytes: Int64 = 0

    /// `removed 120 cache entries (14.2 MiB); 40 entries (4.7 MiB) kept`.
    public var description: String {
        "removed \(removedEntries.counting("cache entry", plural: "cache entries")) (\(ByteCount.text(removedBytes))); "
            + "\(keptEntries.counting("entry", plural: "entries")) (\(ByteCount.text(keptBytes))) kept"
    }
}

/// Sizes for people, in 1024-based units.
enum ByteCount {
    /// `512 bytes`, `1.5 KiB`, `14.2 MiB`, `3.0 GiB`.
    static func text(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return bytes.counting("byte") }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}

/// Durations for people.
enum AgeText {
    /// `45 s`, `12 min`, `5 h 3 min`, `3 d 4 h`.
    static func text(seconds: Int64) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86_400: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
        }
    }
}
