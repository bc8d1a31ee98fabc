import Foundation
import Testing

/// What a rebuild after one edited title writes must not grow with the catalog: the same edit in a
/// catalog four times as large may write little more (bench/scale.py measures it at 100,000 cards).
@Suite("The edit's writes against the catalog's size")
struct EditCostTests {
    /// The cards of the smaller catalog; the larger has four times as many.
    static let cards = 100

    @Test("an edited title writes no more in a catalog of 4x the cards")
    func editedTitleWritesDoNotGrow() throws {
        let small = try EditWrites(cards: Self.cards)
        let large = try EditWrites(cards: Self.cards * 4)
        let allowed = small.bytesBesidesBitmaps * 3 / 2 + 16 * 1024
        #expect(large.bytesBesidesBitmaps <= allowed, Comment(rawValue:
                "\(Self.cards * 4) cards wrote \(large.bytesBesidesBitmaps) bytes besides the card's bitmaps, "
                    + "\(Self.cards) wrote \(small.bytesBesidesBitmaps); by file (\(Self.cards) → \(Self.cards * 4) cards): "
                    + large.growth(from: small)))
    }
}

/// One catalog of tiny cards built, rebuilt unchanged, then rebuilt after its middle card's title
/// changed: the files of the output and cache folders that last build changed.
struct EditWrites {
    /// The bytes written to each changed file (its size, or what follows its old bytes in a table
    /// appended to), by its path under `work/` with digests written as `<digest>`.
    var changed: [String: Int64] = [:]
    /// Bytes of the changed files that are the edited card's bitmaps, in the output or the cache.
    var bitmapBytes: Int64 = 0

    var bytesBesidesBitmaps: Int64 { changed.values.reduce(0, +) - bitmapBytes }

    init(cards count: Int) throws {
        try Sandbox.with { sandbox in
            try sandbox.write(Data(contentsOf: HostileImage.fixtures.appendingPathComponent("orientation-1.jpg")),
                              to: "images/photo.jpg")
            var cards = (0..<count).map { CardSpec(String(format: "card-%05d", $0), image: "photo.jpg") }
            let style: [String: Any] = ["scales": [1], "format": "png", "cardWidth": 48]
            let build = ["build", "catalog.json", "-o", "Output", "--cache-dir", "cache", "-q"]
            try sandbox.writeCatalog(cards, style: style)
            for _ in 0..<2 {
                let result = try sandbox.run(build)
                try #require(result.status == 0, result.comment)
            }
            let before = sandbox.listing("Output").merging(sandbox.listing("cache").mapKeys { "cache/\($0)" }) { $1 }
            // The cache's tables are appended to: what a build wrote to one is what follows its old bytes.
            let tables = try sandbox.listing("cache").filter { !$0.key.contains("/") && !$0.value.isDirectory }
                .reduce(into: [String: Data]()) { $0["cache/\($1.key)"] = try sandbox.data("cache/\($1.key)") }
            let edited = cards[count / 2].id
            cards[count / 2].title = "An edited title"
            try sandbox.writeCatalog(cards, style: style)
            let result = try sandbox.run(build)
            try #require(result.status == 0, result.comment)
            let after = sandbox.listing("Output").merging(sandbox.listing("cache").mapKeys { "cache/\($0)" }) { $1 }
            let bitmaps = try sandbox.fileNames("Output/cards").filter { $0.hasPrefix("\(edited)@") }
                .map { try sandbox.data("Output/cards/\($0)") }
            for (path, identity) in after where !identity.isDirectory && before[path] != identity {
                let file = path.hasPrefix("cache/") ? path : "Output/\(path)"
                let bytes = try sandbox.data(file)
                let old = tables[file].flatMap { before[path]?.inode == identity.inode && bytes.starts(with: $0) ? $0 : nil }
                changed[Self.withoutDigests(file), default: 0] += identity.size - Int64(old?.count ?? 0)
                if bitmaps.contains(bytes) { bitmapBytes += identity.size }
            }
            try #require(!bitmaps.isEmpty, "the build wrote no bitmap of \(edited)")
        }
    }

    /// Each file's size here against `smaller`'s, those that grew first.
    func growth(from smaller: EditWrites) -> String {
        Set(changed.keys).union(smaller.changed.keys)
            .map { (name: $0, from: smaller.changed[$0] ?? 0, to: changed[$0] ?? 0) }
            .sorted { ($0.to - $0.from, $0.name) > ($1.to - $1.from, $1.name) }
            .map { "\($0.name) \($0.from) → \($0.to)" }
            .joined(separator: ", ")
    }

    /// `path` with every digest (and the two-digit folder before one) written as `<digest>`, so
    /// that content-addressed files have the same name in both catalogs.
    static func withoutDigests(_ path: String) -> String {
        path.replacingOccurrences(of: "([0-9a-f]{2}/)?[0-9a-f]{16,}", with: "<digest>", options: .regularExpression)
    }
}

private extension Dictionary {
    func mapKeys(_ transform: (Key) -> Key) -> [Key: Value] {
        Dictionary(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
