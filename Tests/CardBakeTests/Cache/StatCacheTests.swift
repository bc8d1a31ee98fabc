import Foundation
import Synchronization
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("StatCache")
struct StatCacheTests {
    /// A clock tests can move; it starts at the system's time.
    final class TestClock: Sendable {
        private let time = Mutex(StatCache.currentTime())

        var now: Int64 { time.withLock { $0 } }

        func advance(seconds: Int64) {
            advance(nanoseconds: seconds * 1_000_000_000)
        }

        func advance(nanoseconds: Int64) {
            time.withLock { $0 += nanoseconds }
        }

        func set(_ nanoseconds: Int64) {
            time.withLock { $0 = nanoseconds }
        }

        /// A cache loaded from `file` that reads this clock; its waits advance the clock and are
        /// added up in `slept`.
        func cache(loadingFrom file: URL? = nil) -> StatCache {
            StatCache(loadingFrom: file, clock: { self.now }, sleep: { nanoseconds in
                self.sleptTotal.withLock { $0 += nanoseconds }
                self.advance(nanoseconds: nanoseconds)
            })
        }

        private let sleptTotal = Mutex<Int64>(0)
        /// Nanoseconds the caches of this clock waited.
        var slept: Int64 { sleptTotal.withLock { $0 } }
    }

    /// A clock far enough ahead that files written now are not racy.
    static func futureClock() -> TestClock {
        let clock = TestClock()
        clock.advance(seconds: 60)
        return clock
    }

    /// Given, for several tests: `image.png` holding "pixels", hashed once (`first`) by a cache whose
    /// clock is far enough ahead that the entry is trusted.
    func withHashedFile(_ body: (_ directory: URL, _ file: URL, _ cache: StatCache, _ first: ContentDigest) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("image.png")
            try writeFile("pixels", to: file)
            let cache = Self.futureClock().cache()
            try body(directory, file, cache, try cache.digest(ofFileAt: file))
        }
    }

    @Test("An unchanged file whose times are well before the entry is a hit, not a read")
    func hit() throws {
        try withHashedFile { _, file, cache, digest in
            // When
            let again = try cache.digest(ofFileAt: file)
            // Then
            #expect(digest == ContentDigest.sha256(Data("pixels".utf8)))
            #expect(again == digest)
            #expect((cache.hits, cache.misses) == (1, 1))
        }
    }

    @Test("A recorded digest is returned without reading the file")
    func recordedDigest() throws {
        try withTemporaryDirectory { directory in
            // Given: a digest the file does not have, so a read would show.
            let file = directory.appendingPathComponent("out.png")
            try writeFile("output", to: file)
            let cache = Self.futureClock().cache()
            let recorded = ContentDigest.sha256(Data("what the writer computed".utf8))
            // When
            try cache.record(recorded, forFileAt: file)
            // Then
            #expect(try cache.digest(ofFileAt: file) == recorded)
            #expect(cache.hits == 1)
        }
    }

    @Test("A changed size means a new read")
    func changedSize() throws {
        try withHashedFile { _, file, cache, _ in
            let mtime = try modificationTime(of: file)
            try writeFile("pixels!", to: file)
            try setModificationTime(of: file, to: mtime)
            #expect(try cache.digest(ofFileAt: file) == ContentDigest.sha256(Data("pixels!".utf8)))
            #expect((cache.hits, cache.misses) == (0, 2))
        }
    }

    @Test("A changed modification time means a new read")
    func changedModificationTime() throws {
        try withHashedFile { _, file, cache, _ in
            try setModificationTime(of: file, to: try modificationTime(of: file) - 5_000_000_000)
            #expect(try cache.digest(ofFileAt: file) == ContentDigest.sha256(Data("pixels".utf8)))
            #expect((cache.hits, cache.misses) == (0, 2))
        }
    }

    @Test("A file replaced by another (new inode), even with the same size and times, means a new read")
    func changedInode() throws {
        try withHashedFile { _, file, cache, _ in
            let mtime = try modificationTime(of: file)
            try AtomicFileWriter.write(Data("PIXELS".utf8), to: file)
            try setModificationTime(of: file, to: mtime)
            #expect(try cache.digest(ofFileAt: file) == ContentDigest.sha256(Data("PIXELS".utf8)))
        }
    }

    @Test("Racy clean: same-length contents written in the same second with the mtime forced back are noticed")
    func racyWriteIsNoticed() throws {
        try withTemporaryDirectory { directory in
            // Given: a file hashed right after it was written, with the real clock.
            let file = directory.appendingPathComponent("catalog.json")
            try writeFile("AAAA", to: file)
            let mtime = try modificationTime(of: file)
            let cache = StatCache(loadingFrom: nil)
            #expect(try cache.digest(ofFileAt: file) == ContentDigest.sha256(Data("AAAA".utf8)))
            // When: it is rewritten in place with as many bytes, and its mtime is put back.
            try writeFile("BBBB", to: file)
            try setModificationTime(of: file, to: mtime)
            // Then
            #expect(try cache.digest(ofFileAt: file) == ContentDigest.sha256(Data("BBBB".utf8)))
        }
    }

    @Test("A racy entry is not trusted even when the stat matches; re-hashing later makes it trusted")
    func racyEntryIsRehashedThenTrusted() throws {
        try withTemporaryDirectory { directory in
            // Given: an entry recorded at the moment the file was written.
            let file = directory.appendingPathComponent("image.png")
            try writeFile("pixels", to: file)
            let clock = TestClock()
            let cache = clock.cache()
            _ = try cache.digest(ofFileAt: file)
            // When / Then: while racy, every lookup reads the file.
            _ = try cache.digest(ofFileAt: file)
            #expect((cache.hits, cache.misses) == (0, 2))
            // When / Then: a read well after the last change records a trusted entry.
            clock.advance(seconds: 3)
            _ = try cache.digest(ofFileAt: file)
            _ = try cache.digest(ofFileAt: file)
            #expect((cache.hits, cache.misses) == (1, 3))
        }
    }

    @Test("The racy rule: both times must be more than the margin before the recording",
          arguments: [(StatCache.coarseRacyMargin, Int64(0)), (StatCache.fineRacyMargin, Int64(123_456_789))])
    func racyRule(margin: Int64, subsecond: Int64) {
        // Times with a sub-second part get the fine margin; whole seconds get the coarse one.
        let recordedAt: Int64 = 100 * 1_000_000_000 + subsecond
        func isTrusted(modified: Int64, changed: Int64) -> Bool {
            let status = FileStatus(size: 1, modificationTime: modified, inode: 1, changeTime: changed)
            return StatCache.Entry(status: status, digest: ContentDigest.sha256(Data()), recordedAt: recordedAt).isTrusted
        }
        let justOutside = recordedAt - margin - (subsecond == 0 ? 1_000_000_000 : 1)
        #expect(isTrusted(modified: justOutside, changed: justOutside))
        #expect(!isTrusted(modified: recordedAt - margin, changed: justOutside))
        #expect(!isTrusted(modified: justOutside, changed: recordedAt - margin))
        #expect(!isTrusted(modified: recordedAt + margin, changed: recordedAt + margin))
    }

    @Test("A whole-second time, as on a file system without sub-second times, keeps the 2 s margin")
    func wholeSecondTimesKeepTheCoarseMargin() {
        let recordedAt: Int64 = 100 * 1_000_000_000
        let fineChange = recordedAt - 1_000_000_000 + 5
        let status = FileStatus(size: 1, modificationTime: recordedAt - 1_000_000_000, inode: 1, changeTime: fineChange)
        let entry = StatCache.Entry(status: status, digest: ContentDigest.sha256(Data()), recordedAt: recordedAt)
        #expect(entry.racyMargin == StatCache.coarseRacyMargin)
        #expect(!entry.isTrusted)
    }

    @Test("On a file system with sub-second times, an entry recorded 150 ms after the last write is trusted")
    func entryPastTheFineMarginIsTrusted() throws {
        try withTemporaryDirectory { directory in
            // Given: a file written now, on this test's file system, which keeps sub-second times.
            let file = directory.appendingPathComponent("card@2x.png")
            try AtomicFileWriter.write(Data("card".utf8), to: file)
            let written = try FileStatus(path: file.path)
            try #require(written.modificationTime % 1_000_000_000 != 0, "the temporary folder keeps whole-second times")
            // When: its digest is recorded 150 ms after the write.
            let clock = TestClock()
            clock.set(written.changeTime + 150_000_000)
            let cache = clock.cache()
            let recorded = ContentDigest.sha256(Data("what the writer computed".utf8))
            try cache.record(recorded, forFileAt: file)
            // Then
            #expect(try cache.digest(ofFileAt: file) == recorded)
            #expect((cache.hits, cache.misses) == (1, 0))
        }
    }

    @Test("A missing file throws an error naming the path")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("gone.png")
            let error = try #require(throws: FileSystemError.self) { try StatCache(loadingFrom: nil).digest(ofFileAt: file) }
            #expect(error == .cannotRead(path: file.path, errno: ENOENT))
            #expect(error.description.contains(file.path))
            #expect(throws: FileSystemError.cannotRead(path: file.path, errno: ENOENT)) {
                try StatCache(loadingFrom: nil).record(ContentDigest.sha256(Data()), forFileAt: file)
            }
        }
    }

    @Test("Paths are normalised: a relative or dotted path to a file shares its entry")
    func normalisedPaths() throws {
        try withHashedFile { directory, _, cache, _ in
            _ = try cache.digest(ofFileAt: directory.appendingPathComponent("sub/../image.png"))
            _ = try cache.digest(ofFileAt: URL(fileURLWithPath: "./image.png", relativeTo: directory))
            #expect((cache.hits, cache.misses, cache.count) == (2, 1, 1))
        }
    }

    @Test("Many files looked up together: trusted entries are hits, others are read, missing files are nil")
    func batchLookup() throws {
        try withHashedFile { directory, file, cache, digest in
            let other = directory.appendingPathComponent("other.png")
            try writeFile("more pixels", to: other)
            let missing = directory.appendingPathComponent("missing.png")
            let found = cache.digests(ofFilesAtPaths: [file, other, missing].map(\.fileSystemPath))
            #expect(found == [digest, ContentDigest.sha256(Data("more pixels".utf8)), nil])
            #expect((cache.hits, cache.misses) == (1, 2))
        }
    }

    @Test("A path is used as is only when it is already normal; otherwise it is standardised",
          arguments: ["/a/b.png", "/a//b.png", "/a/./b.png", "/a/../b.png", "/a/b/", "/a/b/.", "/a/b/..", "/",
                      "/a/.hidden", "/a/..b/c", "/a/.../c", "/a./b", "/."])
    func fileSystemPath(path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(url.fileSystemPath == url.standardizedFileURL.path)
    }

    @Test("Many threads looking up the same files agree")
    func concurrentLookups() throws {
        try withTemporaryDirectory { directory in
            let files = try (0..<8).map { index in
                let file = directory.appendingPathComponent("\(index).png")
                try writeFile("image \(index)", to: file)
                return file
            }
            let cache = Self.futureClock().cache()
            DispatchQueue.concurrentPerform(iterations: 400) { iteration in
                let index = iteration % files.count
                let digest = try? cache.digest(ofFileAt: files[index])
                #expect(digest == ContentDigest.sha256(Data("image \(index)".utf8)))
            }
            #expect(cache.hits + cache.misses == 400)
            #expect(cache.misses >= files.count)
            #expect(cache.count == files.count)
        }
    }
}
