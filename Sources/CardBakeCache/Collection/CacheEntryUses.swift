import CardBakeFiles
import CardBakeManifest
import Foundation

/// When each entry of a cache folder was last used by a build (read, checked or written), kept in
/// one file that a build updates at its end. Garbage collection removes the least recently used
/// entries first; an entry with no time here (written by a build that was killed before its end)
/// counts as used when its file was last modified.
///
/// The entries the latest build used are kept as a set whose time is that build's, so that a build
/// records only the entries it started or stopped using, not every entry it used: an edit writes a
/// few changes whatever the cache's size. An entry a build stops using keeps the time of the last
/// build that used it.
///
/// The file is a ``RecordLog`` named `uses`, keyed by the entry (UInt8 area, 0 ac or 1 cas, then the
/// 32 digest bytes); a value of no bytes marks an entry the latest build used, a big-endian Int64
/// the seconds since 1970 of the last use of one it did not; a frame's note is the latest build's
/// time in seconds. A file that is missing or of another version reads as empty, one damaged part
/// way as far as it is intact: it only orders collection.
package struct CacheEntryUses: Equatable, Sendable {
    /// The file's name in the cache folder.
    package static let fileName = "uses"

    /// Seconds since 1970 of each entry's last use.
    package private(set) var times: [CacheEntryID: Int64]
    /// The entries the latest build used; their time is `latest`.
    private var current: Set<CacheEntryID> = []
    private var latest: Int64 = 0
    /// What changed since loading: an entry's new mark, nil when it was forgotten.
    private var changes: [CacheEntryID: Mark?] = [:]
    private var end: RecordLog.End?

    private enum Mark: Equatable, Sendable {
        case usedByLatestBuild
        case used(at: Int64)
    }

    package init(times: [CacheEntryID: Int64] = [:]) {
        self.times = times
        changes = times.mapValues { .used(at: $0) }
    }

    /// The uses saved in the cache folder `folder`; empty when there are none.
    package init(loadingFrom folder: URL) {
        self.init()
        let log = Self.log(in: folder)
        guard let bytes = log.bytes() else { return }
        var explicit: [CacheEntryID: Int64] = [:]
        end = log.read(bytes) { note, key, value in
            guard key.count == 33, let area = CacheEntryID.Area(rawValue: key[0]),
                  let digest = ContentDigest(bytes: UnsafeRawBufferPointer(rebasing: key[1...])) else { return }
            let entry = CacheEntryID(area, digest)
            latest = note
            var reader = value.map { BinaryReader(bytes: $0, offset: 0) }
            switch (value?.count, reader?.integer(Int64.self)) {
            case (0?, _):
                current.insert(entry)
                explicit[entry] = nil
            case (8?, let seconds?):
                current.remove(entry)
                explicit[entry] = seconds
            default:
                current.remove(entry)
                explicit[entry] = nil
            }
        }
        times = explicit
        for entry in current {
            times[entry] = latest
        }
    }

    /// Marks `entry` used at `seconds`, apart from any build's set.
    package mutating func use(_ entry: CacheEntryID, at seconds: Int64) {
        let time = max(times[entry] ?? seconds, seconds)
        times[entry] = time
        current.remove(entry)
        changes[entry] = .used(at: time)
    }

    /// Records a build at `seconds` that used `entries` (some more than once): they are the latest
    /// build's set now, and those of the previous set it did not use keep that build's time.
    package mutating func recordBuild(using entries: (_ body: (CacheEntryID) -> Void) -> Void, at seconds: Int64) {
        var used: Set<CacheEntryID> = []
        entries { used.insert($0) }
        for entry in current where !used.contains(entry) {
            changes[entry] = .used(at: latest)
        }
        for entry in used {
            if !current.contains(entry) { changes[entry] = .usedByLatestBuild }
            times[entry] = seconds
        }
        current = used
        latest = seconds
    }

    /// Forgets `entries` (removed from the cache).
    package mutating func forget(_ entries: some Sequence<CacheEntryID>) {
        for entry in entries where times.removeValue(forKey: entry) != nil {
            current.remove(entry)
            changes[entry] = .some(nil)
        }
    }

    /// Keeps only `entries` (those the cache holds).
    package mutating func keepOnly(_ entries: Set<CacheEntryID>) {
        forget(times.keys.filter { !entries.contains($0) })
    }

    /// Writes the uses into the cache folder `folder`: the changes since loading appended, or the
    /// whole table written atomically. Saving twice writes the same changes over each other.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming the file.
    package func save(in folder: URL) throws {
        _ = try Self.log(in: folder).save(changes.count, changes: { emit in
            for (entry, mark) in changes { try emit(Self.change(entry, mark)) }
        }, entries: times.count, note: latest, after: end) { emit in
            for entry in times.keys {
                try emit(Self.change(entry, current.contains(entry) ? .usedByLatestBuild : .used(at: times[entry]!)))
            }
        }
    }

    private static func log(in folder: URL) -> RecordLog {
        RecordLog(file: folder.appendingPathComponent(fileName), name: "uses")
    }

    private static func change(_ entry: CacheEntryID, _ mark: Mark?) -> RecordLog.Change {
        let key = Data([entry.area.rawValue] + entry.digest.bytes)
        switch mark {
        case nil: return (key, nil)
        case .usedByLatestBuild: return (key, Data())
        case .used(let seconds)?:
            var value: [UInt8] = []
            value.appendBigEndian(seconds)
            return (key, Data(value))
        }
    }

    package static func == (lhs: CacheEntryUses, rhs: CacheEntryUses) -> Bool {
        lhs.times == rhs.times
    }
}
