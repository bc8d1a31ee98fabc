/// A table loaded from a cache file that remembers which entries a build used and which it set, so
/// that saving it keeps only those used (entries of deleted files or dropped cards do not pile up),
/// writes only what changed (``RecordLog``), and is skipped when that would change nothing. Not
/// thread-safe: keep it behind a lock.
package struct UsedEntries<Key: Hashable, Value: Equatable> {
    /// Each entry with whether this build used it and set it: marks in the table rather than sets of
    /// keys beside it, which would hold every key a second time.
    private var entries: [Key: Slot]
    private var usedCount = 0
    private var changedCount = 0
    /// Counts changes to `entries`; a save is needed when it moved since the last load or save.
    private var generation = 0
    private var savedGeneration = 0

    private struct Slot {
        var value: Value
        var used: Bool
        /// Whether the value differs from the file's: set since loading or the last save.
        var changed: Bool
    }

    package init(loaded entries: [Key: Value]) {
        self.entries = entries.mapValues { Slot(value: $0, used: false, changed: false) }
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
            entries[key] = Slot(value: value, used: true, changed: true)
            usedCount += 1
            changedCount += 1
            generation += 1
            return
        }
        markUsed(at: index)
        if entries.values[index].value != value {
            entries.values[index].value = value
            markChanged(at: index)
            generation += 1
        }
    }

    /// Forgets the entry for `key`, whose value is now kept elsewhere and saved from there; counts as
    /// a change, so the next save happens even when no entry was removed.
    package mutating func remove(_ key: Key) {
        if let slot = entries.removeValue(forKey: key) {
            if slot.used { usedCount -= 1 }
            if slot.changed { changedCount -= 1 }
        }
        generation += 1
    }

    private mutating func markUsed(at index: Dictionary<Key, Slot>.Index) {
        if !entries.values[index].used {
            entries.values[index].used = true
            usedCount += 1
        }
    }

    private mutating func markChanged(at index: Dictionary<Key, Slot>.Index) {
        if !entries.values[index].changed {
            entries.values[index].changed = true
            changedCount += 1
        }
    }

    /// What a save writes: the entries set since loading or the last save, the keys of those unused
    /// (which the file must drop), the number of entries the saved table holds, and the generation
    /// they reflect (for ``saved(_:)``).
    package struct PendingSave {
        package let changed: [(key: Key, value: Value)]
        package let removed: [Key]
        package let kept: Int
        fileprivate let generation: Int
    }

    /// What saving must write, when it would change the file.
    package func pendingSave() -> PendingSave? {
        if generation == savedGeneration && usedCount == entries.count { return nil }
        var changed: [(key: Key, value: Value)] = []
        changed.reserveCapacity(changedCount)
        var removed: [Key] = []
        removed.reserveCapacity(entries.count - usedCount)
        for (key, slot) in entries {
            if slot.changed { changed.append((key, slot.value)) }
            if !slot.used { removed.append(key) }
        }
        return PendingSave(changed: changed, removed: removed, kept: usedCount, generation: generation)
    }

    /// Every entry used: what the saved table holds, for a save that writes it whole.
    package var usedEntries: [(key: Key, value: Value)] {
        entries.lazy.filter(\.value.used).map { ($0.key, $0.value.value) }
    }

    /// Marks `pending` written: its changes are the file's now (those not set again since), and the
    /// entries it removed (those still unused) are gone from the table.
    package mutating func saved(_ pending: PendingSave) {
        for (key, value) in pending.changed {
            if let index = entries.index(forKey: key), entries.values[index].changed, entries.values[index].value == value {
                entries.values[index].changed = false
                changedCount -= 1
            }
        }
        for key in pending.removed {
            guard let index = entries.index(forKey: key) else { continue }
            // One used since is missing from the file: the next save writes it again.
            if entries.values[index].used { markChanged(at: index) } else { entries.remove(at: index) }
        }
        savedGeneration = max(savedGeneration, pending.generation)
    }
}

extension UsedEntries.PendingSave: Sendable where Key: Sendable, Value: Sendable {}
