@testable import CardBakeCache
import Testing

@Suite("Place table")
struct PlaceTableTests {
    @Test("Gives the places a dictionary gives, through sets, replacements, removals and merges",
          arguments: [1, 3, 64])
    func matchesDictionary(mergeAt: Int) {
        var table = PlaceTable(mergeAt: mergeAt)
        var model: [UInt64: Int64] = [:]
        var generator = SystemRandomNumberGenerator()
        // Few distinct words, so that words are set again, removed and set again, before and after merges.
        for step in 0..<3_000 {
            let word = UInt64.random(in: 0..<200, using: &generator) &* 0x9E37_79B9_7F4A_7C15
            if Int.random(in: 0..<4, using: &generator) == 0 {
                table[word] = nil
                model[word] = nil
            } else {
                table[word] = Int64(step)
                model[word] = Int64(step)
            }
            let probe = UInt64.random(in: 0..<200, using: &generator) &* 0x9E37_79B9_7F4A_7C15
            #expect(table[probe] == model[probe])
        }
        for (word, place) in model {
            #expect(table[word] == place)
        }
        #expect(table.allPlaces.sorted() == model.values.sorted())
    }

    @Test("Words at the ends of the range and a place of zero are kept")
    func extremes() {
        var table = PlaceTable(mergeAt: 2)
        table[.max] = 0
        table[0] = 7
        table[1] = Int64.max
        #expect(table[.max] == 0)
        #expect(table[0] == 7)
        #expect(table[1] == Int64.max)
        #expect(table[2] == nil)
        table[0] = nil
        #expect(table[0] == nil)
        #expect(table.allPlaces.sorted() == [0, Int64.max])
    }
}
