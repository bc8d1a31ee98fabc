/// Places (offsets into a file) by a 64-bit word, in 16 bytes an entry: a sorted array searched by
/// halves, made at its exact size, and a small table of the entries added since its last merge.
/// A `Dictionary` keeps a quarter to over half of its slots empty, and its old slots beside the new
/// while it doubles.
struct PlaceTable {
    /// Sorted by word; a removed entry keeps its word with the place ``removed``.
    private var words: [UInt64] = []
    private var places: [Int64] = []
    /// Entries whose word is not in `words`, merged into the sorted arrays once there are `mergeAt`.
    private var recent: [UInt64: Int64] = [:]
    private let mergeAt: Int

    private static let removed: Int64 = -1

    /// A table that merges its recent entries into the sorted array once `mergeAt` have come.
    init(mergeAt: Int = 4_096) {
        self.mergeAt = mergeAt
    }

    /// The place of `word`, or nil; setting nil removes it. Places are never negative.
    subscript(word: UInt64) -> Int64? {
        get {
            if let place = recent[word] { return place }
            guard let index = sortedIndex(of: word), places[index] != Self.removed else { return nil }
            return places[index]
        }
        set {
            precondition(newValue.map { $0 >= 0 } ?? true, "a place is an offset")
            if let index = sortedIndex(of: word) {
                places[index] = newValue ?? Self.removed
            } else if let newValue {
                recent[word] = newValue
                if recent.count >= mergeAt { merge() }
            } else {
                recent[word] = nil
            }
        }
    }

    /// Every place held, in no particular order.
    var allPlaces: [Int64] {
        places.filter { $0 != Self.removed } + recent.values
    }

    private func sortedIndex(of word: UInt64) -> Int? {
        var (low, high) = (0, words.count)
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low < words.count && words[low] == word ? low : nil
    }

    /// Moves the recent entries into the sorted arrays, made at their exact size, leaving out removed ones.
    private mutating func merge() {
        let incoming = recent.sorted { $0.key < $1.key }
        recent.removeAll(keepingCapacity: true)
        var (mergedWords, mergedPlaces) = ([UInt64](), [Int64]())
        let count = places.count { $0 != Self.removed } + incoming.count
        mergedWords.reserveCapacity(count)
        mergedPlaces.reserveCapacity(count)
        var (old, new) = (0, 0)
        while old < words.count || new < incoming.count {
            if new == incoming.count || (old < words.count && words[old] < incoming[new].key) {
                if places[old] != Self.removed {
                    mergedWords.append(words[old])
                    mergedPlaces.append(places[old])
                }
                old += 1
            } else {
                mergedWords.append(incoming[new].key)
                mergedPlaces.append(incoming[new].value)
                new += 1
            }
        }
        (words, places) = (mergedWords, mergedPlaces)
    }
}
