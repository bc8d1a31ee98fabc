/// A table loaded from a cache file that remembers which entries a build used, so that saving it
/// keeps only those (entries of deleted files or dropped cards do not pile up) and is skipped
/// when that would not change the file. Not thread-safe: keep it behind a lock.
package struct UsedEntries<Key: Hashable, Value: Equatable> {
    /// Each entry with whether this build used it: a mark in the table rather than a set of keys
    /// beside it, which would hold every key a second time.
    private var entries: [Key: Slot]
    private var usedCount = 0
    /// Counts changes to `entries`; a save is needed when it moved since the last load or save.
    private var generation = 0
    private var savedGeneration = 0

    private struct Slot {
        var value: Value
        var used: Bool
    }

    package init(loaded entries: [Key: Value]) {
        self.entries = entries.mapValues { Slot(value: $0, used: false) }
    }

    package var count: Int { entries.count }

    /// Whether there is an entry for `key`; it is not marked used.
    package func contains(_ key: Key) -> Bool {
        entries[key] != nil
    }

    /// The keys used since loading.
    package var usedKeys: Set<Key> { Set(entries.lazy.filter(\.value.used).map(\.key)) }

    /// The entry for `key`, if any, marking it used when `accept` takes it.
    package mutating func value(for key: Key, if accept: (Value) -> Bool = { _ in true }) -> Value? {
        guard let index = entries.index(forKey: key), accept(entries.values[index].value) else { return nil }
        markUsed(at: index)
        return entries.values[index].value
    }

    /// Sets and marks used the entry for `key`.
    package mutating func set(_ value: Value, for key: Key) {
        guard let index = entries.index(forKey: key) else {
            entries[key] = Slot(value: value, used: true)
            usedCount += 1
            generation += 1
            return
        }
        markUsed(at: index)
        if entries.values[index].value != value {
            entries.values[index].value = value
            generation += 1
        }
    }

    /// Forgets the entry for `key`, whose value is now kept elsewhere; counts as a change, so the
    /// next save happens even when no entry was removed.
    package mutating func remove(_ key: Key) {
        if let slot = entries.removeValue(forKey: key), slot.used {
            usedCount -= 1
        }
        generation += 1
    }

    private mutating func markUsed(at index: Dictionary<Key, Slot>.Index) {
        if !entries.values[index].used {
            entries.values[index].used = true
            usedCount += 1
        }
    }

    /// The used entries and the generation they reflect, when saving them would change the file;
    /// pass the generation to ``saved(_:)`` once they are written.
    package func pendingSave() -> (entries: [Key: Value], generation: Int)? {
        if generation == savedGeneration && usedCount == entries.count { return nil }
        return (entries.filter(\.value.used).mapValues(\.value), generation)
    }

    package mutating func saved(_ generation: Int) {
        savedGeneration = max(savedGeneration, generation)
    }
}
