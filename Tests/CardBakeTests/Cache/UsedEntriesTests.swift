import Testing
@testable import CardBakeCache

@Suite("Used entries of a cache table")
struct UsedEntriesTests {
    @Test("A save keeps the entries looked up or set, and is skipped when it would change nothing")
    func keepsWhatWasUsed() throws {
        var table = UsedEntries(loaded: ["a": 1, "b": 2, "c": 3])
        #expect(table.count == 3)
        #expect(table.usedKeys.isEmpty)
        // Nothing used: saving would drop every entry.
        #expect(table.pendingSave()?.entries == [:])

        #expect(table.value(for: "a") == 1)
        #expect(table.value(for: "b", if: { $0 > 5 }) == nil, "a rejected entry is not used")
        #expect(table.contains("b"))
        table.set(4, for: "d")
        #expect(table.usedKeys == ["a", "d"])
        let pending = try #require(table.pendingSave())
        #expect(pending.entries == ["a": 1, "d": 4])

        table.saved(pending.generation)
        table.set(4, for: "d")
        // "b" and "c" are still unused, so the file would still change.
        #expect(table.pendingSave()?.entries == ["a": 1, "d": 4])
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
        #expect(pending.entries == ["a": 1, "b": 5])
        table.saved(pending.generation)
        #expect(table.pendingSave() == nil)
    }

    @Test("Removing an entry (kept elsewhere) drops it from the save and counts as a change")
    func removeCountsAsChange() throws {
        var table = UsedEntries(loaded: ["a": 1, "b": 2])
        #expect(table.value(for: "a") == 1)
        #expect(table.value(for: "b") == 2)
        #expect(table.pendingSave() == nil)
        table.remove("c")
        #expect(table.pendingSave()?.entries == ["a": 1, "b": 2], "the saved file gains what is kept elsewhere")
        table.remove("b")
        #expect(!table.contains("b"))
        #expect(table.usedKeys == ["a"])
        #expect(table.pendingSave()?.entries == ["a": 1])
    }
}
