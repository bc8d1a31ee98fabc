import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeManifest

/// ``CacheCollector`` on a disk store filled in code: least recently used first, records and blobs
/// removed together, the last build's entries protected.
@Suite("Cache collection")
struct CacheCollectorTests {
    /// A store with bitmap records, each naming a blob of `blobBytes`, last used at the times given.
    struct Fixture {
        let store: DiskArtifactStore
        let indexFile: URL
        var uses = CacheEntryUses()

        init(directory: URL) throws {
            store = try DiskArtifactStore(root: directory.appendingPathComponent("cache"))
            indexFile = directory.appendingPathComponent("cache/ac-index")
        }

        /// Stores a record under `key` naming a blob with `content`, both used at `time`.
        @discardableResult
        mutating func add(_ key: String, blob content: String, usedAt time: Int64) throws -> (key: ContentDigest, blob: ContentDigest) {
            let blob = try store.storeBlob(Data(content.utf8) + Data(count: 1000))
            let digest = ContentDigest.sha256(Data(key.utf8))
            try store.storeActionResult(RenderedImageRecord(blob: blob, bytes: 1000, width: 1, height: 1).cacheBytes,
                                        for: digest)
            uses.use(CacheEntryID(.actionResult, digest), at: time)
            uses.use(CacheEntryID(.blob, blob), at: time)
            return (digest, blob)
        }

        /// Saves the uses and an index naming `protected`, then collects.
        func collect(_ limit: CacheLimit, protecting protected: [ContentDigest] = [], now: Int64 = 1000)
            throws -> CacheCollector.Outcome {
            try uses.save(in: store.root)
            var index: [ContentDigest: Data] = [:]
            for key in protected {
                index[key] = store.actionResult(for: key)
            }
            try IndexedArtifactStore.write(index, to: indexFile)
            return try CacheCollector(store: store, indexFile: indexFile, references: ArtifactReferences.blobs(namedBy:))
                .collect(limit, protecting: Set(protected), now: now)
        }

        func holds(_ entry: (key: ContentDigest, blob: ContentDigest)) -> (record: Bool, blob: Bool) {
            (store.actionResult(for: entry.key) != nil, store.blob(entry.blob) != nil)
        }

        /// The size of a record's file and its blob's.
        func bytes(_ entry: (key: ContentDigest, blob: ContentDigest)) throws -> Int64 {
            try [store.actionResultURL(for: entry.key), store.blobURL(for: entry.blob)].reduce(0) { total, url in
                total + (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64 ?? 0)
            }
        }
    }

    func withFixture(_ body: (inout Fixture) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            var fixture = try Fixture(directory: directory)
            try body(&fixture)
        }
    }

    @Test("The least recently used go first, each record with its blob, until the cache fits")
    func leastRecentlyUsedFirst() throws {
        try withFixture { fixture in
            let old = try fixture.add("old", blob: "aaaa", usedAt: 100)
            let middle = try fixture.add("middle", blob: "bbbb", usedAt: 200)
            let recent = try fixture.add("recent", blob: "cccc", usedAt: 300)
            let pair = try fixture.bytes(old)
            let outcome = try fixture.collect(CacheLimit(maxBytes: 2 * pair))
            #expect(fixture.holds(old) == (false, false))
            #expect(fixture.holds(middle) == (true, true) && fixture.holds(recent) == (true, true))
            #expect(outcome.removedActionResults == 1 && outcome.removedBlobs == 1 && outcome.removedBytes == pair)
            #expect(outcome.keptEntries == 4 && outcome.keptBytes == 2 * pair)
        }
    }

    @Test("A blob two records name stays until both are removed")
    func sharedBlob() throws {
        try withFixture { fixture in
            let old = try fixture.add("old", blob: "shared", usedAt: 100)
            let recent = try fixture.add("recent", blob: "shared", usedAt: 300)
            let other = try fixture.add("other", blob: "other", usedAt: 200)
            let total = CacheInventory(store: fixture.store, uses: fixture.uses).totalBytes
            // When: the limit is met by removing the oldest record alone.
            _ = try fixture.collect(CacheLimit(maxBytes: total - 1))
            // Then
            #expect(fixture.holds(old).record == false)
            #expect(fixture.holds(recent) == (true, true) && fixture.holds(other) == (true, true))
        }
    }

    @Test("The last build's entries stay when others can go, and go only when the limit cannot be met without them")
    func protectedEntries() throws {
        try withFixture { fixture in
            let current = try fixture.add("current", blob: "current", usedAt: 100)
            let newer = try fixture.add("newer", blob: "newer", usedAt: 300)
            let pair = try fixture.bytes(current)
            _ = try fixture.collect(CacheLimit(maxBytes: pair), protecting: [current.key])
            #expect(fixture.holds(current) == (true, true) && fixture.holds(newer) == (false, false))
            // When the limit is below what the last build needs
            _ = try fixture.collect(CacheLimit(maxBytes: pair / 2), protecting: [current.key])
            // Then it goes too, and the index no longer names it.
            #expect(fixture.holds(current) == (false, false))
            #expect(IndexedArtifactStore.keys(inIndexAt: fixture.indexFile).isEmpty)
        }
    }

    @Test("--max-age removes what was unused for longer, but never the last build's entries")
    func maximumAge() throws {
        try withFixture { fixture in
            let current = try fixture.add("current", blob: "current", usedAt: 100)
            let stale = try fixture.add("stale", blob: "stale", usedAt: 150)
            let fresh = try fixture.add("fresh", blob: "fresh", usedAt: 950)
            _ = try fixture.collect(CacheLimit(maxBytes: nil, maxAge: 100), protecting: [current.key], now: 1000)
            #expect(fixture.holds(current) == (true, true) && fixture.holds(fresh) == (true, true))
            #expect(fixture.holds(stale) == (false, false))
        }
    }

    @Test("A blob no record names is collected as any entry; the uses keep only what is left")
    func orphanBlobsAndUses() throws {
        try withFixture { fixture in
            let orphan = try fixture.store.storeBlob(Data("orphan".utf8))
            fixture.uses.use(CacheEntryID(.blob, orphan), at: 50)
            let kept = try fixture.add("kept", blob: "kept", usedAt: 300)
            let outcome = try fixture.collect(CacheLimit(maxBytes: try fixture.bytes(kept)))
            #expect(outcome.removedBlobs == 1 && fixture.store.blob(orphan) == nil && fixture.holds(kept) == (true, true))
            #expect(Set(CacheEntryUses(loadingFrom: fixture.store.root).times.keys)
                    == [CacheEntryID(.actionResult, kept.key), CacheEntryID(.blob, kept.blob)])
        }
    }
}
