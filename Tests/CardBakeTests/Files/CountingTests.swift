import CardBakeFiles
import Testing

/// Every count cardbake prints is worded by `counting` and `word`, so one is never "1 cards".
@Suite("Count words")
struct CountingTests {
    @Test("A count of one takes the singular, every other count the plural",
          arguments: [(0, "0 cards"), (1, "1 card"), (2, "2 cards"), (-1, "-1 cards")])
    func counting(count: Int, expected: String) {
        #expect(count.counting("card") == expected)
    }

    @Test("A plural that is not the noun and an s is given; other integer types count the same way")
    func irregular() {
        #expect(1.counting("miss", plural: "misses") == "1 miss" && 3.counting("miss", plural: "misses") == "3 misses")
        #expect(Int64(1).counting("byte") == "1 byte" && Int64(1024).counting("byte") == "1024 bytes")
        #expect(1.word("is", plural: "are") == "is" && 2.word("is", plural: "are") == "are")
        #expect(1.word("shard") == "shard" && 0.word("shard") == "shards")
    }
}
