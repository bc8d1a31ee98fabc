import Foundation
import Synchronization
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("Action-cache index")
struct IndexedArtifactStoreTests {
    /// A store that counts the action-cache lookups that reach it.
    final class CountingStore: ArtifactStoring {
        let base = InMemoryArtifactStore()
        private let count = Mutex(0)
        var lookups: Int { count.withLock { $0 } }

        func actionResult(for key: ContentDigest) -> Data? {
            count.withLock { $0 += 1 }
            return base.actionResult(for: key)
        }
        func storeActionResult(_ record: Data, for key: ContentDigest) { base.storeActionResult(record, for: key) }
        func blob(_ digest: ContentDigest) -> Data? { base.blob(digest) }
        func containsBlob(_ digest: ContentDigest) -> Bool { base.containsBlob(digest) }
        func storeBlob(_ data: Data) -> ContentDigest { base.storeBlob(data) }
    }

    let keys = (0..<3).map { ContentDigest.sha256(Data("key \($0)".utf8)) }

    /// Stores a record under each key through an index saved to `file`, and returns the base store.
    func storeRecords(indexFile file: URL) async throws -> CountingStore {
        let base = CountingStore()
        let store = IndexedArtifactStore(base: base, loadingIndexFrom: nil)
        for (index, key) in keys.enumerated() {
            try await store.storeActionResult(Data("record \(index)".utf8), for: key)
        }
        try store.save(to: file)
        return base
    }

    /// ``storeRecords(indexFile:)`` into `ac-index` in `directory`, then a new store over that index,
    /// as the next build opens it.
    func reopenedIndex(in directory: URL) async throws -> (file: URL, base: CountingStore, store: IndexedArtifactStore) {
        let file = directory.appendingPathComponent("ac-index")
        let base = try await storeRecords(indexFile: file)
        return (file, base, IndexedArtifactStore(base: base, loadingIndexFrom: file))
    }

    @Test("A saved index answers the next build's lookups without asking the store")
    func answersFromTheIndex() async throws {
        try await withTemporaryDirectory { directory in
            let (_, base, store) = try await reopenedIndex(in: directory)
            for (index, key) in keys.enumerated() {
                #expect(await store.actionResult(for: key) == Data("record \(index)".utf8))
            }
            #expect(base.lookups == 0)
        }
    }

    @Test("One saved record is read from the file without building the index; a damaged file answers nothing")
    func readsOneSavedRecord() async throws {
        try await withTemporaryDirectory { directory in
            let (file, base, store) = try await reopenedIndex(in: directory)
            #expect(store.savedActionResult(for: keys[1]) == Data("record 1".utf8))
            #expect(store.savedActionResult(for: ContentDigest.sha256(Data("absent".utf8))) == nil)
            #expect(store.usage.actionResultHits == 1 && store.usage.actionResultMisses == 1)
            // The index was never built, so there is nothing to save: the file stays as it was.
            let saved = directory.appendingPathComponent("saved-again")
            try store.save(to: saved)
            #expect(!FileManager.default.fileExists(atPath: saved.path))
            #expect(base.lookups == 0)

            var bytes = try Data(contentsOf: file)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: file)
            #expect(IndexedArtifactStore(base: base, loadingIndexFrom: file).savedActionResult(for: keys[1]) == nil)
        }
    }

    @Test("The record kept at the head answers for its key while the index file is the one saved with it")
    func headRecord() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let store = IndexedArtifactStore(base: CountingStore(), loadingIndexFrom: nil)
            for (index, key) in keys.enumerated() {
                try await store.storeActionResult(Data("record \(index)".utf8), for: key)
            }
            store.keepAtHead(keys[2])
            try store.save(to: file)
            let head = try #require(HeadRecord(besideIndexAt: file))
            #expect(head.key == keys[2] && head.record == Data("record 2".utf8))

            // The head is asked first: one that says otherwise than the index is what answers.
            HeadRecord.keep(Data("from the head".utf8), for: keys[2], besideIndexAt: file)
            let next = IndexedArtifactStore(base: CountingStore(), loadingIndexFrom: file)
            #expect(next.savedActionResult(for: keys[2]) == Data("from the head".utf8))
            #expect(IndexedArtifactStore(base: CountingStore(), loadingIndexFrom: file).savedActionResult(for: keys[1])
                    == Data("record 1".utf8), "another key is read from the index")

            // A save that names no head removes it; a head kept with the index file as it was before
            // (put back) is stale, and the index answers.
            let headFile = HeadRecord.file(besideIndexAt: file)
            let kept = try Data(contentsOf: headFile)
            let later = IndexedArtifactStore(base: CountingStore(), loadingIndexFrom: file)
            // Used, so that the index saved keeps it (a save keeps the entries its build used).
            #expect(await later.actionResult(for: keys[2]) == Data("record 2".utf8))
            try await later.storeActionResult(Data("record 3".utf8), for: ContentDigest.sha256(Data("key 3".utf8)))
            try later.save(to: file)
            #expect(!FileManager.default.fileExists(atPath: headFile.path))
            try kept.write(to: headFile)
            #expect(HeadRecord(besideIndexAt: file) == nil)
            #expect(IndexedArtifactStore(base: CountingStore(), loadingIndexFrom: file).savedActionResult(for: keys[2])
                    == Data("record 2".utf8))
        }
    }

    @Test("A lookup the index cannot answer goes to the store, and joins the index")
    func missesGoToTheStore() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let base = CountingStore()
            base.base.storeActionResult(Data("elsewhere".utf8), for: keys[0])

            let store = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            #expect(await store.actionResult(for: keys[0]) == Data("elsewhere".utf8))
            #expect(await store.actionResult(for: keys[1]) == nil)
            try store.save(to: file)
            #expect(base.lookups == 2)

            let next = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            #expect(await next.actionResult(for: keys[0]) == Data("elsewhere".utf8))
            #expect(base.lookups == 2)
        }
    }

    @Test("Saving keeps only the entries this build used, and writes nothing when that changes nothing")
    func keepsWhatWasUsed() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let base = try await storeRecords(indexFile: file)

            let used = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            _ = await used.actionResult(for: keys[1])
            try used.save(to: file)
            #expect(IndexedArtifactStore.keys(inIndexAt: file) == [keys[1]])

            let unchanged = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            _ = await unchanged.actionResult(for: keys[1])
            try FileManager.default.removeItem(at: file)
            try unchanged.save(to: file)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("Storing the record the index holds changes nothing; other bytes replace it, in memory and in the file")
    func storesOverSavedRecords() async throws {
        try await withTemporaryDirectory { directory in
            let (file, base, store) = try await reopenedIndex(in: directory)
            try await store.storeActionResult(Data("record 0".utf8), for: keys[0])
            for key in keys.dropFirst() {
                _ = await store.actionResult(for: key)
            }
            try FileManager.default.removeItem(at: file)
            try store.save(to: file)
            #expect(!FileManager.default.fileExists(atPath: file.path), "every entry used, none changed")

            let replaced = Data("record 0, again".utf8)
            try await store.storeActionResult(replaced, for: keys[0])
            #expect(await store.actionResult(for: keys[0]) == replaced)
            #expect(await store.actionResult(for: keys[1]) == Data("record 1".utf8))
            try store.save(to: file)
            let next = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            #expect(await next.actionResult(for: keys[0]) == replaced)
            #expect(await next.actionResult(for: keys[2]) == Data("record 2".utf8))
            #expect(base.lookups == 0)
        }
    }

    @Test("Records a build adds wait in a spool with no name in the cache folder, answer lookups, and are saved")
    func spoolsAddedRecords() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let base = CountingStore()
            let store = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            for (index, key) in keys.enumerated() {
                try await store.storeActionResult(Data("record \(index)".utf8), for: key)
            }
            let kept = ContentDigest.sha256(Data("kept".utf8))
            store.keepInIndex(Data("kept record".utf8), for: kept)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            for (index, key) in keys.enumerated() {
                #expect(await store.actionResult(for: key) == Data("record \(index)".utf8))
            }
            #expect(store.indexedActionResult(for: kept) == Data("kept record".utf8))
            #expect(base.lookups == 0, "answered from the spool")
            #expect(store.usedEntrySet.count == keys.count + 1)

            try store.save(to: file)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ac-index"])
            let next = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            for (index, key) in keys.enumerated() {
                #expect(await next.actionResult(for: key) == Data("record \(index)".utf8))
            }
            #expect(next.indexedActionResult(for: kept) == Data("kept record".utf8))
            #expect(base.lookups == 0)
        }
    }

    @Test("Added keys that share their first 8 bytes each keep their own record, replaced in place and saved")
    func addedKeysSharingALeadingWord() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let base = CountingStore()
            let store = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            // Three keys with the same first 8 bytes, and a fourth only as a lookup.
            let keys = (1...4).map { ContentDigest(bytes: Array(repeating: 7, count: 8) + Array(repeating: UInt8($0), count: 24))! }
            for (index, key) in keys.prefix(3).enumerated() {
                store.keepInIndex(Data("record \(index)".utf8), for: key)
            }
            store.keepInIndex(Data("record 1, again".utf8), for: keys[1])
            store.keepInIndex(Data("record 0, again".utf8), for: keys[0])
            let expected = [Data("record 0, again".utf8), Data("record 1, again".utf8), Data("record 2".utf8)]
            #expect(keys.prefix(3).map(store.indexedActionResult(for:)) == expected)
            #expect(store.indexedActionResult(for: keys[3]) == nil)
            #expect(store.usedEntrySet == Set(keys.prefix(3).map { CacheEntryID(.actionResult, $0) }))

            try store.save(to: file)
            let next = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            #expect(keys.prefix(3).map(next.indexedActionResult(for:)) == expected)
            #expect(next.indexedActionResult(for: keys[3]) == nil)
        }
    }

    @Test("The blobs a build stores and reads are its used entries, each once, with or without a folder for a spool",
          arguments: [true, false])
    func usedBlobs(spooled: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let store = IndexedArtifactStore(base: CountingStore(),
                                             loadingIndexFrom: spooled ? directory.appendingPathComponent("ac-index") : nil)
            var stored: [ContentDigest] = []
            // More than two of the pieces the spool is read back in.
            for blob in 0..<4_500 {
                stored.append(try await store.storeBlob(Data("blob \(blob)".utf8)))
            }
            #expect(await store.blob(stored[3]) == Data("blob 3".utf8))
            #expect(await store.containsBlob(stored[4]))
            #expect(await !store.containsBlob(ContentDigest.sha256(Data("never stored".utf8))))
            #expect(store.usedEntrySet == Set(stored.map { CacheEntryID(.blob, $0) }))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("A damaged or foreign index is ignored whole: every lookup goes to the store", arguments: [0, 25, -1])
    func damagedIndexIsIgnored(flippedByte: Int) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ac-index")
            let base = try await storeRecords(indexFile: file)
            let size = try Data(contentsOf: file).count
            try flipByte(at: flippedByte < 0 ? size + flippedByte : flippedByte, in: file)

            let store = IndexedArtifactStore(base: base, loadingIndexFrom: file)
            for (index, key) in keys.enumerated() {
                #expect(await store.actionResult(for: key) == Data("record \(index)".utf8))
            }
            #expect(base.lookups == keys.count)
        }
    }
}

extension IndexedArtifactStore {
    /// Every entry ``forEachUsedEntry(_:)`` gives, once.
    var usedEntrySet: Set<CacheEntryID> {
        var entries = Set<CacheEntryID>()
        forEachUsedEntry { entries.insert($0) }
        return entries
    }
}
