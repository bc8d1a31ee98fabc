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
/// That key's record is also kept at the index's head (``keepAtHead(_:)``, ``HeadRecord``), a small
/// file beside it, so that the answer costs one small read rather than the whole index's.
///
/// The records this build adds (stored, kept, or found in the underlying store) wait for the save in a
/// ``SpoolFile`` beside the index's file, with only their places in memory: a cold build of a large
/// catalog adds several per card, and holding them would make its memory grow with the catalog.
package final class IndexedArtifactStore: ArtifactStoring {
    private let base: any ArtifactStoring
    private let file: URL?
    private let index = Mutex(Index.unread)
    /// Where the file's intact part ended when it was loaded or last saved: a save appends there.
    private let savedEnd = Mutex<RecordLog.End?>(nil)
    private let added = Mutex(AddedRecords())
    private let use: Mutex<Use>
    /// The key ``save(to:)`` keeps at the index's head.
    private let headKey = Mutex<ContentDigest?>(nil)

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
            case .read(let bytes): entries = UsedEntries(loaded: loadEntries(bytes))
            case .unread: entries = UsedEntries(loaded: loadEntries(file.flatMap(Self.savedBytes)))
            }
            index = .unread  // `entries` is then the only reference to its tables, so `body` changes them in place.
            defer { index = .loaded(entries) }
            return body(&entries)
        }
    }

    /// The entries of the file's `bytes`, noting where its intact part ends.
    private func loadEntries(_ bytes: Data?) -> [ContentDigest: Data] {
        guard let file, let bytes, let saved = Self.decode(bytes, of: file) else { return [:] }
        savedEnd.withLock { $0 = saved.end }
        return saved.entries
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
                if let file, let head = HeadRecord(besideIndexAt: file), head.key == key {
                    return .some(head.record)
                }
                bytes = file.flatMap(Self.savedBytes)
                index = .read(bytes)
            }
            return .some(file.flatMap { file in bytes.flatMap { Self.record(for: key, inIndex: $0, of: file) } })
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

    package func offersBlob(_ digest: ContentDigest) async -> Bool {
        await base.offersBlob(digest)
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

    /// Has the next ``save(to:)`` keep `key`'s record, which this build looked up or stored, at the
    /// index's head too: the one key the next build asks for first (a whole build's record).
    package func keepAtHead(_ key: ContentDigest) {
        headKey.withLock { $0 = key }
    }

    /// Saves to `file` the action results looked up or stored since loading: what changed appended to
    /// the file loaded (``RecordLog``), or the whole index written; writes nothing if that would not
    /// change the file, or if the index was never used. Then keeps the record ``keepAtHead(_:)`` named
    /// at the index's head, or removes the head when none was named.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming the file, or
    ///   ``FileSystemError/cannotRead(path:errno:)`` when a record added cannot be read back.
    package func save(to file: URL) throws {
        guard let pending = index.withLock({ index -> UsedEntries<ContentDigest, Data>.PendingSave? in
            guard case .loaded(let entries) = index else { return nil }
            return entries.pendingSave()
        }) else { return }
        // A key is either in the loaded index or added, never both.
        let added = try self.added.withLock { try $0.entries() }
        let emitAdded: RecordLog.Changes = { emit in
            for entry in added {
                try emit((Data(entry.key.bytes), try self.added.withLock { try $0.record(at: entry.offset) }))
            }
        }
        let end = try Self.log(at: file).save(
            pending.changed.count + pending.removed.count + added.count,
            changes: { emit in
                for (key, record) in pending.changed { try emit((Data(key.bytes), record)) }
                for key in pending.removed { try emit((Data(key.bytes), nil)) }
                try emitAdded(emit)
            },
            entries: pending.kept + added.count, note: 0, after: file == self.file ? savedEnd.withLock { $0 } : nil
        ) { emit in
            for (key, record) in withIndex({ $0.usedEntries }) { try emit((Data(key.bytes), record)) }
            try emitAdded(emit)
        }
        withIndex { $0.saved(pending) }
        savedEnd.withLock { $0 = end }
        if let key = headKey.withLock({ $0 }), let record = indexedActionResult(for: key) {
            HeadRecord.keep(record, for: key, besideIndexAt: file)
        } else {
            HeadRecord.remove(besideIndexAt: file)
        }
    }
}

/// One record of an index kept in a file of its own beside it, `<index>-head`, with the index file's
/// status when it was saved: while the index file is that one, the head answers for its key as the
/// index would. Any other index file (a later save, a collection, a copy) makes the head stale. A head
/// that cannot be written or read only costs a read of the index.
///
/// The file: "cardbake-index-head 1\n", the index file's status (Int64 size, Int64 modification time,
/// UInt64 inode, Int64 change time, big-endian), the 32-byte key, the record, then a SHA-256 of all before.
struct HeadRecord {
    let key: ContentDigest
    let record: Data

    private static let header = Array("cardbake-index-head 1\n".utf8)

    static func file(besideIndexAt index: URL) -> URL {
        index.deletingLastPathComponent().appendingPathComponent(index.lastPathComponent + "-head")
    }

    /// The head beside `index`, if it is intact and was kept with the index file as it is.
    init?(besideIndexAt index: URL) {
        guard let bytes = try? ReadableFile(path: Self.file(besideIndexAt: index).fileSystemPath).readToEnd(),
              let payload = bytes.removingChecksum(), let status = try? FileStatus(path: index.fileSystemPath)
        else { return nil }
        let found: (ContentDigest, Data)? = payload.withUnsafeBytes { buffer in
            var reader = BinaryReader(bytes: buffer, offset: 0)
            guard reader.bytes(Self.header.count)?.elementsEqual(Self.header) == true, reader.fileStatus() == status,
                  let key = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                  let record = reader.bytes(reader.remaining) else { return nil }
            return (key, Data(record))
        }
        guard let found else { return nil }
        (key, record) = found
    }

    /// Keeps `record` under `key` as the head of the index file as it is now.
    static func keep(_ record: Data, for key: ContentDigest, besideIndexAt index: URL) {
        guard let status = try? FileStatus(path: index.fileSystemPath) else { return remove(besideIndexAt: index) }
        var bytes = header
        bytes.appendFileStatus(status)
        bytes.append(contentsOf: key.bytes)
        bytes.append(contentsOf: record)
        do {
            try DigestingFile.writeChecksummed(to: file(besideIndexAt: index)) { try $0(Data(bytes)) }
        } catch {
            remove(besideIndexAt: index)
        }
    }

    static func remove(besideIndexAt index: URL) {
        try? FileManager.default.removeItem(at: file(besideIndexAt: index))
    }
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
        Set(savedBytes(in: file).flatMap { decode($0, of: file) }?.entries.keys ?? [:].keys)
    }

    /// Removes `keys` from the index saved in `file` (entries removed from the cache, which it must
    /// no longer answer); a missing or unreadable index is left as it is.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming the file.
    package static func remove(_ keys: Set<ContentDigest>, fromIndexAt file: URL) throws {
        guard let saved = savedBytes(in: file).flatMap({ decode($0, of: file) }) else { return }
        let removed = keys.filter { saved.entries[$0] != nil }
        guard !removed.isEmpty else { return }
        _ = try log(at: file).save(removed.count, changes: { emit in
            for key in removed { try emit((Data(key.bytes), nil)) }
        }, entries: saved.entries.count - removed.count, note: 0, after: saved.end) { emit in
            for (key, record) in saved.entries where !removed.contains(key) { try emit((Data(key.bytes), record)) }
        }
    }

    /// Writes `entries` as the whole index file `file`.
    package static func write(_ entries: [ContentDigest: Data], to file: URL) throws {
        try log(at: file).write({ emit in
            for (key, record) in entries { try emit((Data(key.bytes), record)) }
        }, note: 0)
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

/// The index file: a ``RecordLog`` named `index`, keyed by the action's 32-byte key, each value its
/// record; the notes are unused.
extension IndexedArtifactStore {
    private static func log(at file: URL) -> RecordLog {
        RecordLog(file: file, name: "index")
    }

    /// The entries of an index file's `bytes`, read from `file`, and where its intact part ends; nil
    /// if they are not an index of this version.
    static func decode(_ bytes: Data, of file: URL) -> (entries: [ContentDigest: Data], end: RecordLog.End)? {
        var entries: [ContentDigest: Data] = [:]
        let end = log(at: file).read(bytes) { _, key, record in
            guard let key = ContentDigest(bytes: key) else { return }
            entries[key] = record.map { Data($0) }
        }
        return end.map { (entries, $0) }
    }

    /// The record under `key` in an index file's `bytes`, found without keeping the others; nil if
    /// the file has none, or is not an index of this version.
    static func record(for key: ContentDigest, inIndex bytes: Data, of file: URL) -> Data? {
        var found: Data?
        _ = log(at: file).read(bytes) { _, entryKey, record in
            if entryKey.elementsEqual(key.bytes) { found = record.map { Data($0) } }
        }
        return found
    }
}
