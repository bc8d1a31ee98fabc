import Foundation
@testable import CardBake
@testable import CardBakeManifest
import Testing

/// The gallery of a large catalog: a small page, and chunk files rewritten in proportion to an edit.
@Suite("Gallery chunks")
struct GalleryChunkTests {
    /// What a second write of the gallery changed: the files written again or anew, and those removed.
    static func changes(_ before: [String: [AnyHashable]], _ after: [String: [AnyHashable]]) -> (written: [String], removed: [String]) {
        (after.filter { before[$0.key] != $0.value }.keys.sorted(), Set(before.keys).subtracting(after.keys).sorted())
    }

    @Test("index.html of 100,000 cards stays within 256 KiB; one title changed rewrites one chunk, the page and the version")
    func hundredThousandCards() async throws {
        try await withTemporaryDirectory { folder in
            let gallery = GalleryFolder(folder)
            var cards = (0..<100_000).map { GalleryCard.generated($0) }
            try await gallery.write(cards)
            let pageBytes = try Data(contentsOf: gallery.page).count
            #expect(pageBytes <= 256 * 1024, "index.html holds \(pageBytes) bytes")
            // About 100,000 / 256 chunks of cards and 100,000 / 2,048 of titles.
            let chunks = gallery.chunkFiles
            #expect((300...600).contains(chunks.count), "\(chunks.count) chunks")

            let before = gallery.identities
            cards[54_321] = .generated(54_321, title: "A title edited")
            try await gallery.write(cards)
            let (written, removed) = Self.changes(before, gallery.identities)
            #expect(removed.count == 1 && written.count == 3, "written \(written), removed \(removed)")
            #expect(written.contains(Gallery.pageName) && written.contains(Gallery.versionName), "\(written)")
            let chunk = try #require(written.first { $0.hasPrefix("\(GalleryChunk.folder)/") })
            let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(chunk)), as: UTF8.self)
            #expect(text.contains(#"["card-54321","A title edited"]"#))
        }
    }

    @Test("A card inserted or removed in the middle rewrites the chunks around it, not those after it")
    func insertedAndRemoved() async throws {
        try await withTemporaryDirectory { folder in
            let gallery = GalleryFolder(folder)
            var cards = (0..<20_000).map { GalleryCard.generated($0) }
            try await gallery.write(cards)
            let first = gallery.identities

            cards.insert(.generated(99_999), at: 7_000)
            try await gallery.write(cards)
            let second = gallery.identities
            var (written, removed) = Self.changes(first, second)
            // Its chunk of cards and of titles, each split in two at most when the new card starts one.
            #expect((4...6).contains(written.count) && (2...4).contains(removed.count), "written \(written), removed \(removed)")

            cards.remove(at: 12_000)
            try await gallery.write(cards)
            (written, removed) = Self.changes(second, gallery.identities)
            #expect((4...6).contains(written.count) && (2...4).contains(removed.count), "written \(written), removed \(removed)")
            #expect(first.count > 80)
        }
    }

    @Test("The sizes of the cards come back from their runs, most used size first")
    func sizeRuns() {
        var sizes = GallerySizes()
        for size in ["320 500", "320 500", "320 500", "300 200", "320 500", "280 614.5"] {
            sizes.add(Substring(size))
        }
        let table = sizes.table
        #expect(table == ["[320,500]", "[300,200]", "[280,614.5]"])
        // [320,500] × 3: 0 × 2 + 1, then 3 − 2; [300,200] once: 1 × 2; [320,500] once: 0; [280,614.5] once: 2 × 2.
        #expect(sizes.encodedRuns(table: table) == "BBCAE")
        var many = GallerySizes()
        for _ in 0..<40 { many.add("320 500") }
        // 40 − 2 = 38: 6 + 32 (more follows), then 1.
        #expect(many.encodedRuns(table: many.table) == "BmB")
    }
}
