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
            damaged[damaged.count / 2] ^= 1
            try damaged.write(to: file)
            #expect(CacheEntryUses(loadingFrom: folder).times.isEmpty)
        }
    }
}
