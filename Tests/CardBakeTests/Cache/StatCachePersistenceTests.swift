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
            #expect(StatCache.decodeEntries(StatCache.encode([:], savedAt: 0)) == [:])
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

    @Test("The file is written in pieces, leaving out the entries asked, and decodes to the rest")
    func streamedEncoding() throws {
        // Given: entries enough for a file of several 64 KiB writes.
        let entries = Dictionary(uniqueKeysWithValues: (0..<3_000).map { index in
            ("/cards/\(index)/" + String(repeating: "p", count: 40),
             StatCache.Entry(status: FileStatus(size: Int64(index), modificationTime: 1_000 + Int64(index), inode: UInt64(index),
                                                changeTime: 2_000 + Int64(index)),
                             digest: ContentDigest.sha256(Data("\(index)".utf8)), recordedAt: 7))
        })
        let leftOut = Set(entries.keys.prefix(10))
        // When
        var pieces: [Data] = []
        StatCache.encode(entries, leavingOut: leftOut, savedAt: 7) { pieces.append($0) }
        // Then: several pieces, none much over 64 KiB, that decode to every entry but those left out.
        #expect(pieces.count > 3)
        #expect(pieces.allSatisfy { $0.count < (1 << 16) + 4096 })
        let file = pieces.reduce(Data(), +).appendingChecksum()
        #expect(StatCache.decodeEntries(file) == entries.filter { !leftOut.contains($0.key) })
        #expect(StatCache.decodeEntries(StatCache.encode(entries, savedAt: 7)) == entries)
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
