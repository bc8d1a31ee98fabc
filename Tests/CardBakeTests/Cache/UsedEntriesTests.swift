import Testing
@testable import CardBakeCache

@Suite("Used entries of a cache table")
struct UsedEntriesTests {
    /// A pending save's changes as a dictionary, and its removals sorted.
    static func summary(_ pending: UsedEntries<String, Int>.PendingSave?) -> (changed: [String: Int], removed: [String], kept: Int)? {
        pending.map { (Dictionary(uniqueKeysWithValues: $0.changed.map { ($0.key, $0.value) }), $0.removed.sorted(), $0.kept) }
    }

    @Test("A save writes the entries set and removes those unused, and is skipped when it would change nothing")
    func keepsWhatWasUsed() throws {
        var table = UsedEntries(loaded: ["a": 1, "b": 2, "c": 3])
        #expect(table.count == 3)
        #expect(table.usedKeys.isEmpty)
        // Nothing used: saving would drop every entry.
        #expect(Self.summary(table.pendingSave())! == ([:], ["a", "b", "c"], 0))

        #expect(table.value(for: "a") == 1)
        #expect(table.value(for: "b", if: { $0 > 5 }) == nil, "a rejected entry is not used")
        #expect(table.contains("b"))
        table.set(4, for: "d")
        #expect(table.usedKeys == ["a", "d"])
        let pending = try #require(table.pendingSave())
        #expect(Self.summary(pending)! == (["d": 4], ["b", "c"], 2))
        #expect(Dictionary(uniqueKeysWithValues: table.usedEntries.map { ($0.key, $0.value) }) == ["a": 1, "d": 4])

        table.saved(pending)
        #expect(table.count == 2, "the entries removed are gone")
        #expect(table.pendingSave() == nil, "the file holds what the table holds")
        table.set(5, for: "d")
        #expect(Self.summary(table.pendingSave())! == (["d": 5], [], 2))
    }

    @Test("A table whose every entry was used, unchanged since it was saved, needs no save")
    func noSaveWhenUnchanged() throws {
        var table = UsedEntries(loaded: ["a": 1, "b": 2])
        #expect(table.value(for: "a") == 1)
        #expect(table.value(for: "a") == 1, "a second look-up counts once")
        #expect(table.pendingSave() != nil)
        table.set(2, for: "b")
        #expect(table.pendingSave() == nil, "every entry used, none changed")

        table.set(5, for: "b")
        let pending = try #require(table.pendingSave())
        #expect(Self.summary(pending)! == (["b": 5], [], 2))
        table.set(6, for: "b")
        table.saved(pending)
        #expect(Self.summary(table.pendingSave())! == (["b": 6], [], 2), "a value set after the save's snapshot is still to write")
    }

    @Test("Removing an entry (kept elsewhere) drops it from the save and counts as a change")
    func removeCountsAsChange() throws {
        var table = UsedEntries(loaded: ["a": 1, "b": 2])
        #expect(table.value(for: "a") == 1)
        #expect(table.value(for: "b") == 2)
        #expect(table.pendingSave() == nil)
        table.remove("c")
        #expect(Self.summary(table.pendingSave())! == ([:], [], 2), "the saved file gains what is kept elsewhere")
        table.remove("b")
        #expect(!table.contains("b"))
        #expect(table.usedKeys == ["a"])
        #expect(Self.summary(table.pendingSave())! == ([:], [], 1))
    }
}
