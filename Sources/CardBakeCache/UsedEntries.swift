/// A table loaded from a cache file that remembers which entries a build used, so that saving it
/// keeps only those (entries of deleted files or dropped cards do not pile up) and is skipped
/// when that would not change the file. Not thread-safe: keep it behind a lock.
package struct UsedEntries<Key: Hashable, Value: Equatable> {
    private var entries: [Key: Value]
    private var used: Set<Key> = []
    /// Counts changes to `entries`; a save is needed when it moved since the last load or save.
    private var generation = 0
    private var savedGeneration = 0

    package init(loaded entries: [Key: Value]) {
        self.entries = entries
    }

    package var count: Int { entries.count }

    /// Whether there is an entry for `key`; it is not marked used.
    package func contains(_ key: Key) -> Bool {
        entries[key] != nil
    }

    /// The keys used since loading.
    package var usedKeys: Set<Key> { used }

    /// The entry for `key`, if any, marking it used when `accept` takes it.
    package mutating func value(for key: Key, if accept: (Value) -> Bool = { _ in true }) -> Value? {
        guard let value = entries[key], accept(value) else { return nil }
        used.insert(key)
        return value
    }

    /// Sets and marks used the entry for `key`.
    package mutating func set(_ value: Value, for key: Key) {
        used.insert(key)
        if entries.updateValue(value, forKey: key) != value {
            generation += 1
        }
    }

    /// The used entries and the generation they reflect, when saving them would change the file;
    /// pass the generation to ``saved(_:)`` once they are written.
    package func pendingSave() -> (entries: [Key: Value], generation: Int)? {
        // Every used key has an entry, so all are used when the counts agree.
        if generation == savedGeneration && used.count == entries.count { return nil }
        let kept = entries.filter { used.contains($0.key) }
        return (kept, generation)
    }

    package mutating func saved(_ generation: Int) {
        savedGeneration = max(savedGeneration, generation)
    }
}
