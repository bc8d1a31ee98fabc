import Foundation
@testable import CardBakeCatalog
import Testing

/// `--shard i/N`: parsing, and which cards a shard holds.
@Suite("Shard")
struct ShardTests {
    @Test("i/N parses for 1 ≤ i ≤ N; anything else does not", arguments: [
        ("1/1", Shard(index: 1, count: 1)), ("2/4", Shard(index: 2, count: 4)), ("4/4", Shard(index: 4, count: 4)),
        ("0/3", nil), ("4/3", nil), ("x", nil), ("1/0", nil), ("-1/3", nil), ("1/3/5", nil), ("/3", nil), ("1/", nil),
        (" 1/3", nil),
    ] as [(String, Shard?)])
    func parsing(text: String, expected: Shard?) {
        #expect(Shard(parsing: text) == expected)
    }

    @Test("A card's shard is the first 8 bytes of SHA-256(id) big-endian, modulo N, plus one: the same on every machine")
    func stableValues() {
        // Computed independently: int.from_bytes(hashlib.sha256(id.encode()).digest()[:8], "big") % N + 1
        #expect(Shard.index(ofCard: "toucan", count: 4) == 4)
        #expect(Shard.index(ofCard: "coffee", count: 4) == 3)
        #expect(Shard.index(ofCard: "card-0001", count: 4) == 2)
        #expect(Shard.index(ofCard: "猫", count: 7) == 2)
    }

    @Test("Each card is in exactly one shard, and shards of 1,000 cards are within 20 % of even")
    func partition() {
        let ids = (0..<1000).map { "card-\($0)" }
        let shards = (1...4).map { Shard(index: $0, count: 4)! }
        var sizes = [0, 0, 0, 0]
        for id in ids {
            let holders = shards.filter { $0.contains(card: id) }
            #expect(holders.count == 1, "\(id)")
            sizes[holders[0].index - 1] += 1
        }
        #expect(sizes.allSatisfy { (200...300).contains($0) }, "\(sizes)")
    }

    @Test("Adding cards to a catalog moves no card to another shard")
    func stableUnderEdits() {
        let before = (0..<200).map { "card-\($0)" }
        let after = ["new-first"] + before + ["new-last"]
        let shardsBefore = Dictionary(uniqueKeysWithValues: before.map { ($0, Shard.index(ofCard: $0, count: 5)) })
        for id in after where shardsBefore[id] != nil {
            #expect(Shard.index(ofCard: id, count: 5) == shardsBefore[id])
        }
    }
}
