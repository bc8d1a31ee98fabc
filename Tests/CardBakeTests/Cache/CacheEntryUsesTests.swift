import Foundation
import Testing
@testable import CardBakeCache
@testable import CardBakeManifest

@Suite("CacheEntryUses")
struct CacheEntryUsesTests {
    @Test("Uses saved in pieces load back whole; a damaged file loads as none")
    func savedInPieces() throws {
        try withTemporaryDirectory { folder in
            // Given: uses enough for a file of several 64 KiB writes.
            var uses = CacheEntryUses()
            for index in 0..<5_000 {
                let digest = ContentDigest.sha256(Data("entry \(index)".utf8))
                uses.use(CacheEntryID(index.isMultiple(of: 3) ? .actionResult : .blob, digest), at: Int64(1_000 + index))
            }
            // When
            try uses.save(in: folder)
            // Then
            let file = folder.appendingPathComponent(CacheEntryUses.fileName)
            #expect(try Data(contentsOf: file).count > 3 * (1 << 16))
            #expect(CacheEntryUses(loadingFrom: folder) == uses)
            var damaged = try Data(contentsOf: file)
            damaged[damaged.count / 3] ^= 1
            try damaged.write(to: file)
            #expect(CacheEntryUses(loadingFrom: folder).times.isEmpty, "the first frame is damaged: nothing after it is read")
        }
    }

    @Test("A build records only the entries it started or stopped using; each keeps the time of its last build")
    func buildsRecordTheirChanges() throws {
        try withTemporaryDirectory { folder in
            let entries = (0..<1_000).map { CacheEntryID(.blob, ContentDigest.sha256(Data("entry \($0)".utf8))) }
            let file = folder.appendingPathComponent(CacheEntryUses.fileName)
            var first = CacheEntryUses(loadingFrom: folder)
            first.recordBuild(using: { entries.forEach($0) }, at: 100)
            try first.save(in: folder)
            let afterFirst = try Data(contentsOf: file).count

            // When: a build that uses every entry but the first, and one new entry.
            let added = CacheEntryID(.actionResult, ContentDigest.sha256(Data("added".utf8)))
            var second = CacheEntryUses(loadingFrom: folder)
            second.recordBuild(using: { body in entries.dropFirst().forEach(body); body(added) }, at: 200)
            try second.save(in: folder)

            // Then: two changes written, not a thousand; the entry left behind keeps the first build's time.
            #expect(try Data(contentsOf: file).count - afterFirst < 200)
            let loaded = CacheEntryUses(loadingFrom: folder)
            #expect(loaded.times[entries[0]] == 100)
            #expect(loaded.times[entries[1]] == 200)
            #expect(loaded.times[added] == 200)
            #expect(loaded.times.count == 1_001)

            // And forgetting an entry removes it for good.
            var collected = loaded
            collected.forget([entries[1]])
            try collected.save(in: folder)
            #expect(CacheEntryUses(loadingFrom: folder).times[entries[1]] == nil)
            #expect(CacheEntryUses(loadingFrom: folder).times.count == 1_000)
        }
    }
}
