import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("StatCache persistence")
struct StatCachePersistenceTests {
    /// Files with entries in a saved stat cache, and the clock that made them trusted.
    struct Saved {
        let files: [URL]
        let cacheFile: URL
        let clock: StatCacheTests.TestClock
    }

    func withSavedCache(_ body: (Saved) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let files = try (0..<3).map { index in
                let file = directory.appendingPathComponent("image \(index) ü.png")
                try writeFile("image \(index)", to: file)
                return file
            }
            let clock = StatCacheTests.futureClock()
            let cache = clock.cache()
            for file in files {
                _ = try cache.digest(ofFileAt: file)
            }
            let cacheFile = directory.appendingPathComponent(".cardbake/stat-cache")
            try cache.save(to: cacheFile)
            try body(Saved(files: files, cacheFile: cacheFile, clock: clock))
        }
    }

    @Test("Saved entries load and give hits")
    func roundTrip() throws {
        try withSavedCache { saved in
            let loaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            #expect(loaded.count == saved.files.count)
            for (index, file) in saved.files.enumerated() {
                try #expect(loaded.digest(ofFileAt: file) == ContentDigest.sha256(Data("image \(index)".utf8)))
            }
            #expect((loaded.hits, loaded.misses) == (saved.files.count, 0))
        }
    }

    @Test("Nothing is written when nothing changed; a change is written")
    func savesOnlyChanges() throws {
        try withSavedCache { saved in
            // Given: a loaded cache whose every file was looked up, all hits.
            let loaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            for file in saved.files {
                _ = try loaded.digest(ofFileAt: file)
            }
            let elsewhere = saved.cacheFile.deletingLastPathComponent().appendingPathComponent("copy")
            // When / Then
            try loaded.save(to: elsewhere)
            #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
            // When / Then: a new entry is a change.
            try loaded.record(ContentDigest.sha256(Data()), forFileAt: saved.cacheFile)
            try loaded.save(to: elsewhere)
            #expect(saved.clock.cache(loadingFrom: elsewhere).count == saved.files.count + 1)
            // And an empty cache has nothing to write.
            try StatCache(loadingFrom: nil).save(to: elsewhere.appendingPathExtension("empty"))
            #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathExtension("empty").path))
        }
    }

    @Test("Entries of files not looked up or recorded since loading are dropped on save")
    func dropsUnusedEntries() throws {
        try withSavedCache { saved in
            // Given: a later build that uses only the first file (the others left the catalog).
            let loaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            _ = try loaded.digest(ofFileAt: saved.files[0])
            // When
            try loaded.save(to: saved.cacheFile)
            // Then
            let reloaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            #expect(reloaded.count == 1)
            _ = try reloaded.digest(ofFileAt: saved.files[0])
            #expect(reloaded.hits == 1)
        }
    }

    @Test("A damaged stat-cache file gives an empty cache", arguments: [0, 10, 22, 40, -1])
    func flippedByte(offset: Int) throws {
        try withSavedCache { saved in
            let size = try Data(contentsOf: saved.cacheFile).count
            try flipByte(at: offset >= 0 ? offset : size + offset, in: saved.cacheFile)
            #expect(StatCache(loadingFrom: saved.cacheFile).count == 0)
        }
    }

    @Test("A truncated, foreign, other-version, missing or unreadable file gives an empty cache")
    func unusableFiles() throws {
        try withSavedCache { saved in
            let bytes = try Data(contentsOf: saved.cacheFile)
            let directory = saved.cacheFile.deletingLastPathComponent()
            let variants: [String: Data] = [
                "truncated": bytes.prefix(bytes.count / 2),
                "empty": Data(),
                "foreign": Data("{\"entries\": []}".utf8),
                "other version": Data("cardbake-stat-cache 3\n".utf8) + bytes.dropFirst(22),
            ]
            for (name, data) in variants {
                try data.write(to: directory.appendingPathComponent(name))
                #expect(StatCache(loadingFrom: directory.appendingPathComponent(name)).count == 0, "\(name)")
            }
            #expect(StatCache(loadingFrom: directory.appendingPathComponent("missing")).count == 0)
            #expect(StatCache(loadingFrom: directory).count == 0)
            #expect(StatCache(loadingFrom: nil).count == 0)
        }
    }

    @Test("A save appends what changed since loading, not the whole table; the next load has it all")
    func appendsChanges() throws {
        try withSavedCache { saved in
            // Given: a build that looks up every file and records one new one.
            let before = try Data(contentsOf: saved.cacheFile)
            let loaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            for file in saved.files {
                _ = try loaded.digest(ofFileAt: file)
            }
            let added = saved.cacheFile.deletingLastPathComponent().appendingPathComponent("added.png")
            try writeFile("added", to: added)
            _ = try loaded.digest(ofFileAt: added)
            // When
            try loaded.save(to: saved.cacheFile)
            // Then: the old bytes stay as they were, followed by one frame that holds one entry.
            let after = try Data(contentsOf: saved.cacheFile)
            #expect(after.prefix(before.count) == before)
            #expect(after.count - before.count < 4 + 12 + 4 + added.path.utf8.count + 4 + 64 + 32 + 1)
            let reloaded = saved.clock.cache(loadingFrom: saved.cacheFile)
            #expect(reloaded.count == saved.files.count + 1)
            for file in saved.files + [added] {
                _ = try reloaded.digest(ofFileAt: file)
            }
            #expect((reloaded.hits, reloaded.misses) == (saved.files.count + 1, 0))
        }
    }

    @Test("A saved file's entries go to the first stat cache made from it; a second reads the file again")
    func savedFileHandsOverItsEntries() throws {
        try withSavedCache { saved in
            let read = StatCache.SavedFile(reading: saved.cacheFile)
            #expect(StatCache(loading: read).count == saved.files.count)
            #expect(StatCache(loading: read).count == saved.files.count)
        }
    }
}
