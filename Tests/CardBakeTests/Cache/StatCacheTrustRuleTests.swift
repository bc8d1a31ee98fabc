import Foundation
import Testing
@testable import CardBakeCache
@testable import CardBakeFiles
@testable import CardBakeManifest

/// The rule by which a build trusts the stat-cache entries the previous build saved, at its
/// boundary, with an injected clock.
@Suite("StatCache trust rule across builds")
struct StatCacheTrustRuleTests {
    /// Where the saved moment lies against the margin after the file's last change.
    enum Moment: String, CaseIterable, CustomTestStringConvertible {
        case exactlyAtTheMargin, justInside, justOutside

        var testDescription: String { rawValue }

        /// Nanoseconds after `latest + margin` at which the file is saved.
        var offset: Int64 {
            switch self {
            case .exactlyAtTheMargin: 0
            case .justInside: -1
            case .justOutside: 1
            }
        }
    }

    /// A file on this test's file system (which keeps sub-second times) and its status.
    func withWrittenFile(_ body: (_ directory: URL, _ file: URL, _ status: FileStatus) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("card@1x.png")
            try AtomicFileWriter.write(Data("card".utf8), to: file)
            let status = try FileStatus(path: file.path)
            try #require(status.modificationTime % 1_000_000_000 != 0 && status.changeTime % 1_000_000_000 != 0,
                         "the temporary folder keeps whole-second times")
            try body(directory, file, status)
        }
    }

    @Test("A saved entry is trusted only when both times are older than the save by more than the margin",
          arguments: Moment.allCases)
    func boundary(moment: Moment) throws {
        try withWrittenFile { directory, file, status in
            // Given: a stat-cache file saved at that moment, whose entry has the file's exact status
            // but a digest the file does not have: the file was rewritten in the same tick, and
            // only reading it can tell.
            let recorded = ContentDigest.sha256(Data("what an earlier write held".utf8))
            let savedAt = max(status.modificationTime, status.changeTime) + StatCache.fineRacyMargin + moment.offset
            let entry = StatCache.Entry(status: status, digest: recorded, recordedAt: 0)
            let cacheFile = directory.appendingPathComponent("stat-cache")
            try StatCache.write([file.path: entry], savedAt: savedAt, to: cacheFile)

            // When: the next build looks the file up, its clock well past the save.
            let cache = StatCacheTests.futureClock().cache(loadingFrom: cacheFile)
            let digest = try cache.digest(ofFileAt: file)

            // Then: only an entry outside the margin is used without reading the file.
            if moment == .justOutside {
                #expect(digest == recorded)
                #expect((cache.hits, cache.misses) == (1, 0))
            } else {
                #expect(digest == ContentDigest.sha256(Data("card".utf8)))
                #expect((cache.hits, cache.misses) == (0, 1))
            }
        }
    }

    @Test("Saving right after writing waits out the margin and checks those files: the bytes written are trusted, a file changed since is read again")
    func settlesRecentEntries() throws {
        try withWrittenFile { directory, file, status in
            // Given: the build's own output recorded with the digest of the bytes it wrote, and
            // another file recorded with bytes it no longer holds (rewritten in the same tick),
            // both 10 ms after they were written.
            let changed = directory.appendingPathComponent("card@2x.png")
            try AtomicFileWriter.write(Data("CARD".utf8), to: changed)
            let clock = StatCacheTests.TestClock()
            clock.set(max(status.modificationTime, status.changeTime, try FileStatus(path: changed.path).changeTime)
                      + 10_000_000)
            let cache = clock.cache()
            try cache.record(ContentDigest.sha256(Data("card".utf8)), forFileAt: file)
            try cache.record(ContentDigest.sha256(Data("what the build wrote".utf8)), forFileAt: changed)
            let cacheFile = directory.appendingPathComponent("stat-cache")

            // When
            try cache.save(to: cacheFile)

            // Then: the save waited no longer than the margin, and the next build reads only the changed file.
            #expect(clock.slept > 0 && clock.slept <= StatCache.fineRacyMargin)
            let next = StatCacheTests.futureClock().cache(loadingFrom: cacheFile)
            #expect(try next.digest(ofFileAt: file) == ContentDigest.sha256(Data("card".utf8)))
            #expect(try next.digest(ofFileAt: changed) == ContentDigest.sha256(Data("CARD".utf8)))
            #expect((next.hits, next.misses) == (1, 1))
        }
    }

    @Test("An entry saved still inside the margin (the wait did not get past it) is read again by the next build")
    func unsettledEntryStaysRacy() throws {
        try withWrittenFile { directory, file, status in
            // Given: a save whose clock does not move while it waits, 10 ms after the write.
            let now = max(status.modificationTime, status.changeTime) + 10_000_000
            let cache = StatCache(loadingFrom: nil, clock: { now }, sleep: { _ in })
            let recorded = ContentDigest.sha256(Data("what an earlier write held".utf8))
            try cache.record(recorded, forFileAt: file)
            let cacheFile = directory.appendingPathComponent("stat-cache")
            // When
            try cache.save(to: cacheFile)
            // Then
            let next = StatCacheTests.futureClock().cache(loadingFrom: cacheFile)
            #expect(try next.digest(ofFileAt: file) == ContentDigest.sha256(Data("card".utf8)))
            #expect(next.misses == 1)
        }
    }

    @Test("Racy git: a file rewritten with as many bytes right after the save, its mtime put back, is read again")
    func rewriteRightAfterSave() throws {
        try withWrittenFile { directory, file, status in
            // Given: the entry saved on the system's clock, settled.
            let cache = StatCache(loadingFrom: nil)
            try cache.record(ContentDigest.sha256(Data("card".utf8)), forFileAt: file)
            let cacheFile = directory.appendingPathComponent("stat-cache")
            try cache.save(to: cacheFile)
            // When
            try writeFile("CARD", to: file)
            try setModificationTime(of: file, to: status.modificationTime)
            // Then
            #expect(try StatCache(loadingFrom: cacheFile).digest(ofFileAt: file) == ContentDigest.sha256(Data("CARD".utf8)))
        }
    }
}
