import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// An ``ArtifactStoring`` that answers action-cache lookups from a compact index read once per
/// build, in front of a store where each action result is a file of its own (or a remote request).
///
/// A lookup the index cannot answer goes to the underlying store and its answer joins the index.
/// Blobs always go to the underlying store, which checks them. ``save(to:)`` keeps the entries this
/// build used, so the next build of the same catalog makes one read instead of one per card and
/// scale. The index is a copy: losing it, or finding it damaged, only costs the lookups it saved.
///
/// It also notes which blobs the build read, checked or stored, and counts hits and misses, for the
/// cache's record of use (``CacheEntryUses``) and its statistics.
///
/// The file is read when the index is first used, and ``savedActionResult(for:)`` answers one key
/// from it without building the index: a build found up to date as a whole needs no other entry.
///
/// The records this build adds (stored, kept, or found in the underlying store) wait for the save in a
/// ``SpoolFile`` beside the index's file, with only their places in memory: a cold build of a large
/// catalog adds several per card, and holding them would make its memory grow with the catalog.
package final class IndexedArtifactStore: ArtifactStoring {
    private let base: any ArtifactStoring
    private let file: URL?
    private let index = Mutex(Index.unread)
    private let added = Mutex(AddedRecords())
    private let use: Mutex<Use>

    /// The index as far as this build has needed it. The file is read once: a build that probed one key
    /// (``savedActionResult(for:)``) and then runs its stages decodes the bytes it already has.
    private enum Index {
        case unread
        case read(Data?)
        case loaded(UsedEntries<ContentDigest, Data>)
    }

    /// Wraps `base`, with the index saved in `file`; an empty index if `file` is nil, missing,
    /// damaged or of another format version.
    package init(base: any ArtifactStoring, loadingIndexFrom file: URL?) {
        self.base = base
        self.file = file
        use = Mutex(Use(blobs: UsedBlobs(spoolingIn: file?.deletingLastPathComponent())))
    }

    /// Runs `body` on the index, decoded from the file the first time.
    private func withIndex<Result: Sendable>(_ body: @Sendable (inout UsedEntries<ContentDigest, Data>) -> Result) -> Result {
        index.withLock { index in
            var entries: UsedEntries<ContentDigest, Data>
            switch index {
            case .loaded(let loaded): entries = loaded
            case .read(let bytes): entries = UsedEntries(loaded: bytes.flatMap(Self.decodeEntries) ?? [:])
            case .unread: entries = UsedEntries(loaded: file.flatMap(Self.savedEntries) ?? [:])
            }
            index = .unread  // `entries` is then the only reference to its tables, so `body` changes them in place.
            defer { index = .loaded(entries) }
            return body(&entries)
        }
    }

    /// The action result under `key` as the index holds it, without asking the underlying store; found
    /// in the saved file's bytes for that one key, without building the index, when nothing has used it yet.
    package func savedActionResult(for key: ContentDigest) -> Data? {
        // nil once the index is loaded: then it answers, as for any lookup.
        let fromFile: Data?? = index.withLock { index in
            let bytes: Data?
            switch index {
            case .loaded: return nil
            case .read(let read): bytes = read
            case .unread:
                bytes = file.flatMap(Self.savedBytes)
                index = .read(bytes)
            }
            return .some(bytes.flatMap { Self.record(for: key, inIndex: $0) })
        }
        let found = fromFile ?? indexedActionResult(for: key)
        use.withLock { $0.actionResultLookedUp(found: found != nil) }
        return found
    }

    package func actionResult(for key: ContentDigest) async -> Data? {
        let found: Data?
        if let indexed = indexedActionResult(for: key) {
            found = indexed
        } else {
            found = await base.actionResult(for: key)
            if let found {
                keepInIndex(found, for: key)
            }
        }
        use.withLock { $0.actionResultLookedUp(found: found != nil) }
        return found
    }

    package func storeActionResult(_ record: Data, for key: ContentDigest) async throws {
        try await base.storeActionResult(record, for: key)
        keepInIndex(record, for: key)
    }

    package func blob(_ digest: ContentDigest) async -> Data? {
        let blob = await base.blob(digest)
        use.withLock { $0.blobLookedUp(digest, found: blob != nil) }
        return blob
    }

    package func containsBlob(_ digest: ContentDigest) async -> Bool {
        let found = await base.containsBlob(digest)
        use.withLock { $0.blobLookedUp(digest, found: found) }
        return found
    }

    package func blobFile(_ digest: ContentDigest) async -> String? {
        let file = await base.blobFile(digest)
        use.withLock { $0.blobLookedUp(digest, found: file != nil) }
        return file
    }

    @discardableResult
    package func storeBlob(_ data: Data) async throws -> ContentDigest {
        let digest = try await base.storeBlob(data)
        use.withLock { $0.blobStored(digest) }
        return digest
    }

    /// The action result under `key` when the index holds it, without asking the underlying store:
    /// for a caller that cannot wait for a disk or a network.
    package func indexedActionResult(for key: ContentDigest) -> Data? {
        withIndex { $0.value(for: key) } ?? added.withLock { $0.record(for: key) }
    }

    /// Keeps `record` under `key` in the index alone, without waiting: it is saved with the index but
    /// not written to the underlying store.
    package func keepInIndex(_ record: Data, for key: ContentDigest) {
        // A record the saved index holds is only marked used. Any other goes to the spool when there is
        // a file to save the index in, and a key lives in one place or the other.
        if withIndex({ $0.value(for: key, if: { $0 == record }) }) != nil { return }
        let spooled = added.withLock { $0.add(record, for: key, besideIndexAt: file) }
        withIndex { entries in
            if spooled { entries.remove(key) } else { entries.set(record, for: key) }
        }
    }

    /// Calls `body` with each entry this build used so far, some more than once: action results
    /// looked up (found) or stored, and blobs read, found or stored. The blobs come from their spool a
    /// piece at a time, not gathered in a set (a cold build of a large catalog uses tens of thousands).
    package func forEachUsedEntry(_ body: (CacheEntryID) -> Void) {
        for entry in added.withLock({ (try? $0.entries()) ?? [] }) {
            body(CacheEntryID(.actionResult, entry.key))
        }
        for key in withIndex({ $0.usedKeys }) {
            body(CacheEntryID(.actionResult, key))
        }
        // Those spooled so far, read back outside the lock: a spool is only appended to.
        use.withLock { $0.blobs }.forEach { body(CacheEntryID(.blob, $0)) }
    }

    /// Look-ups answered and missed so far.
    package var usage: StoreUsage {
        use.withLock { $0.usage }
    }

    /// Writes atomically to `file` the action results looked up or stored since loading; writes
    /// nothing if that would not change the file, or if the index was never used.
    package func save(to file: URL) throws {
        let pending = index.withLock { index -> (entries: [ContentDigest: Data], generation: Int)? in
            guard case .loaded(let entries) = index else { return nil }
            return entries.pendingSave()
        }
        guard let pending else { return }
        try added.withLock { added in
            // A key is either in the saved index or added, never both.
            let entries = (pending.entries.map { (key: $0.key, record: SavedRecord.loaded($0.value)) }
                + (try added.entries()).map { (key: $0.key, record: SavedRecord.spooled(at: $0.offset)) })
                .sorted { $0.key < $1.key }
            try DigestingFile.writeChecksummed(to: file) { sink in
                try Self.writeEntries(entries.map(\.key), record: { position in
                    switch entries[position].record {
                    case .loaded(let record): record
                    case .spooled(let offset): try added.record(at: offset)
                    }
                }, to: sink)
            }
        }
        withIndex { $0.saved(pending.generation) }
    }
}

/// Where a record the index saves is: decoded from the saved index, or in the spool of those added.
private enum SavedRecord {
    case loaded(Data)
    case spooled(at: Int64)
}

/// The records a build added to the index, each after its key and length in a ``SpoolFile`` beside
/// the index's file (made when the first comes); none when there is no file to save the index in.
///
/// In memory it keeps only where each record starts, by the first 8 bytes of its key, in a
/// ``PlaceTable``: 16 bytes a record, which a cold build of a large catalog adds several of per card.
/// A key is confirmed by the one in the spool; the rare key whose first 8 bytes an earlier key has
/// is kept by its whole key.
private struct AddedRecords {
    private var spool: SpoolFile?
    private var places = PlaceTable()
    private var clashing: [ContentDigest: Int64] = [:]

    /// A spooled record's key and length: 32 bytes, then a big-endian UInt32.
    private static let headSize = 36

    /// Every key added, with where its record starts.
    func entries() throws -> [(key: ContentDigest, offset: Int64)] {
        try (places.allPlaces + clashing.values).map { offset in (try head(at: offset).key, offset) }
    }

    /// Writes `record` to the spool; false, keeping nothing, when there is no index file or no spool can be made.
    mutating func add(_ record: Data, for key: ContentDigest, besideIndexAt file: URL?) -> Bool {
        guard let file else { return false }
        if spool == nil {
            spool = try? SpoolFile(in: file.deletingLastPathComponent())
        }
        var keyAndLength = key.bytes
        keyAndLength.appendBigEndian(UInt32(record.count))
        guard let spool, let offset = try? spool.append(keyAndLength), (try? spool.append(record)) != nil else {
            // The caller keeps the record in memory instead: the key must not stay here too.
            remove(key)
            return false
        }
        if clashing[key] != nil || placeHoldsAnotherKey(than: key) {
            clashing[key] = offset
        } else {
            places[key.leadingWord] = offset
        }
        return true
    }

    /// Whether the place for `key`'s first 8 bytes holds the record of a different key.
    private func placeHoldsAnotherKey(than key: ContentDigest) -> Bool {
        guard let offset = places[key.leadingWord] else { return false }
        return (try? head(at: offset).key) != key
    }

    /// The record under `key`, if this build added one and it can be read back.
    func record(for key: ContentDigest) -> Data? {
        guard let place = place(of: key) else { return nil }
        return try? recordBytes(count: place.count, at: place.offset)
    }

    /// The record at `offset`, one of ``entries()``'s; throws ``FileSystemError`` when it cannot be read back.
    func record(at offset: Int64) throws -> Data {
        try recordBytes(count: try head(at: offset).count, at: offset)
    }

    /// Where the record under `key` starts and its length, if this build added one: its head, read
    /// once, confirms the key.
    private func place(of key: ContentDigest) -> (offset: Int64, count: Int)? {
        guard let offset = clashing[key] ?? places[key.leadingWord], let head = try? head(at: offset),
              head.key == key else { return nil }
        return (offset, head.count)
    }

    private func recordBytes(count: Int, at offset: Int64) throws -> Data {
        guard let spool else { preconditionFailure("no record was added") }
        return try spool.read(count: count, at: offset + Int64(Self.headSize))
    }

    private mutating func remove(_ key: ContentDigest) {
        if clashing.removeValue(forKey: key) == nil, place(of: key) != nil {
            places[key.leadingWord] = nil
        }
    }

    private func head(at offset: Int64) throws -> (key: ContentDigest, count: Int) {
        guard let spool else { preconditionFailure("no record was added") }
        let head = try spool.read(count: Self.headSize, at: offset)
        return head.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: 0)
            return (ContentDigest(bytes: reader.bytes(32)!)!, Int(reader.integer(UInt32.self)!))
        }
    }
}

extension IndexedArtifactStore {
    /// The keys of the index saved in `file`: the action results the build that saved it used.
    package static func keys(inIndexAt file: URL) -> Set<ContentDigest> {
        Set(savedEntries(in: file)?.keys ?? [:].keys)
    }

    /// Rewrites the index saved in `file` without `keys` (entries removed from the cache, which it
    /// must no longer answer); a missing or unreadable index is left as it is.
    ///
    /// - Throws: the errors of ``AtomicFileWriter/write(_:to:)``.
    package static func remove(_ keys: Set<ContentDigest>, fromIndexAt file: URL) throws {
        guard let entries = savedEntries(in: file) else { return }
        let kept = entries.filter { !keys.contains($0.key) }
        if kept.count != entries.count {
            try AtomicFileWriter.write(encode(kept), to: file)
        }
    }

    private static func savedEntries(in file: URL) -> [ContentDigest: Data]? {
        savedBytes(in: file).flatMap(decodeEntries)
    }

    /// The bytes of the index saved in `file`; nil when there is none.
    private static func savedBytes(in file: URL) -> Data? {
        try? ReadableFile(path: file.fileSystemPath).readToEnd()
    }
}

/// Look-ups of a build's store: hits and misses of action results and blobs.
package struct StoreUsage: Sendable, Equatable {
    package var actionResultHits = 0
    package var actionResultMisses = 0
    package var blobHits = 0
    package var blobMisses = 0
}

/// What a build did with its store: counts, and the blobs it read, found or stored.
private struct Use {
    var usage = StoreUsage()
    var blobs: UsedBlobs

    mutating func actionResultLookedUp(found: Bool) {
        if found { usage.actionResultHits += 1 } else { usage.actionResultMisses += 1 }
    }

    mutating func blobLookedUp(_ digest: ContentDigest, found: Bool) {
        if found {
            usage.blobHits += 1
            blobs.insert(digest)
        } else {
            usage.blobMisses += 1
        }
    }

    mutating func blobStored(_ digest: ContentDigest) {
        blobs.insert(digest)
    }
}

/// The blobs a build used, appended to a ``SpoolFile`` (made when the first comes) rather than held:
/// a cold build of a large catalog stores several per card. Held in memory when there is no folder
/// for the spool or it cannot be written.
private struct UsedBlobs {
    private let folder: URL?
    private var spool: SpoolFile?
    /// Digests spooled, each 32 bytes from the start of the file; none after an append fails.
    private var spooled = 0
    private var spoolFailed = false
    private var held: Set<ContentDigest> = []

    init(spoolingIn folder: URL?) {
        self.folder = folder
    }

    mutating func insert(_ digest: ContentDigest) {
        if spool == nil, !spoolFailed, let folder {
            spool = try? SpoolFile(in: folder)
            spoolFailed = spool == nil
        }
        if let spool, !spoolFailed {
            if (try? spool.append(digest.bytes)) != nil {
                spooled += 1
                return
            }
            // What that append wrote in part is past the digests read back.
            spoolFailed = true
        }
        held.insert(digest)
    }

    /// Digests read back from the spool at once.
    private static let readBack = 2_048

    /// Calls `body` with every digest inserted, some more than once, reading the spool ``readBack``
    /// digests at a time; those spooled that cannot be read back are missing.
    func forEach(_ body: (ContentDigest) -> Void) {
        held.forEach(body)
        guard let spool else { return }
        for first in stride(from: 0, to: spooled, by: Self.readBack) {
            let count = min(Self.readBack, spooled - first)
            guard let bytes = try? spool.read(count: count * 32, at: Int64(first) * 32) else { return }
            for offset in stride(from: 0, to: bytes.count, by: 32) {
                body(ContentDigest(bytes: bytes[offset..<offset + 32])!)
            }
        }
    }
}

/// The index file, integers big-endian:
///
///     "cardbake-ac-index 1\n"
///     UInt32 entry count
///     per entry: 32 key bytes, UInt32 record length, record
///     32-byte SHA-256 of everything before it
///
/// A file that does not start with this exact header, or fails its checksum, is ignored whole.
extension IndexedArtifactStore {
    private static let header = Array("cardbake-ac-index 1\n".utf8)

    package static func encode(_ entries: [ContentDigest: Data]) -> Data {
        var bytes = Data()
        let keys = entries.keys.sorted()
        writeEntries(keys, record: { entries[keys[$0]]! }, to: { bytes.append($0) })
        return bytes.appendingChecksum()
    }

    /// Hands `sink` an index file a piece at a time, all but its checksum: the header, then the entry
    /// of each of `keys` (in increasing order) with its `record`, by its position in `keys`.
    private static func writeEntries(_ keys: [ContentDigest], record: (Int) throws -> Data,
                                     to sink: (Data) throws -> Void) rethrows {
        var start = header
        start.appendBigEndian(UInt32(keys.count))
        try sink(Data(start))
        for (position, key) in keys.enumerated() {
            let bytes = try record(position)
            var head = key.bytes
            head.appendBigEndian(UInt32(bytes.count))
            try sink(Data(head))
            try sink(bytes)
        }
    }

    /// The entries of an index file; nil if it is not one, of this version, intact.
    package static func decodeEntries(_ file: Data) -> [ContentDigest: Data]? {
        var entries: [ContentDigest: Data] = [:]
        let intact = walk(file) { count in
            entries.reserveCapacity(count)
        } entry: { key, record in
            entries[key] = Data(record)
        }
        return intact ? entries : nil
    }

    /// The record under `key` in an index file, found without decoding the others; nil if the file
    /// has none, or is not an index of this version, intact.
    static func record(for key: ContentDigest, inIndex file: Data) -> Data? {
        var found: Data?
        let intact = walk(file) { _ in } entry: { entryKey, record in
            if found == nil, entryKey == key { found = Data(record) }
        }
        return intact ? found : nil
    }

    /// Calls `entry` for each entry of an index file, after `count` with their number (bounded by
    /// the file's size); whether the file is an intact index of this version.
    private static func walk(_ file: Data, count: (Int) -> Void,
                             entry: (ContentDigest, UnsafeRawBufferPointer) -> Void) -> Bool {
        guard file.starts(with: header), let body = file.removingChecksum() else { return false }
        return body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: header.count)
            guard let total = reader.integer(UInt32.self) else { return false }
            count(min(Int(total), reader.remaining / 36))
            var previous: ContentDigest?
            for _ in 0..<total {
                guard let keyBytes = reader.bytes(32), let key = ContentDigest(bytes: keyBytes),
                      let length = reader.integer(UInt32.self),
                      let record = reader.bytes(Int(length)) else { return false }
                // Written in increasing key order, so no key repeats.
                guard previous.map({ $0 < key }) ?? true else { return false }
                previous = key
                entry(key, record)
            }
            return reader.remaining == 0
        }
    }
}
