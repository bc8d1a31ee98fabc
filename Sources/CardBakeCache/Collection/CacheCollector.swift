import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc

/// Removes entries from a ``DiskArtifactStore`` until it fits a ``CacheLimit``, least recently used
/// first, as bazel-remote's LRU does, but keeping action results and blobs consistent: a blob goes
/// with every action result that names it, and an action result takes along the blobs only it named.
///
/// Entries the caller protects (the action results the most recent build used, and the blobs they
/// name) go only when the size limit cannot be met without them; the age limit never removes them.
///
/// The caller holds the cache folder's lock. Removal is ordered so that a collection stopped at any
/// point (`kill -9`) leaves a consistent cache: the index of action results and the uses are written
/// first without the entries to remove, then the action results are unlinked, then the blobs, so
/// no action result ever names a removed blob.
package struct CacheCollector: Sendable {
    package let store: DiskArtifactStore
    /// The blobs an action result names (any digest that is not a blob's is ignored).
    package let references: @Sendable (_ record: Data) -> [ContentDigest]
    /// The index of action results (``IndexedArtifactStore``) kept in the folder, rewritten without what is removed.
    package let indexFile: URL

    package init(store: DiskArtifactStore, indexFile: URL, references: @escaping @Sendable (_ record: Data) -> [ContentDigest]) {
        self.store = store
        self.indexFile = indexFile
        self.references = references
    }

    /// What a collection removed and what is left.
    package struct Outcome: Sendable, Equatable {
        package var removedActionResults = 0
        package var removedBlobs = 0
        package var removedBytes: Int64 = 0
        package var keptEntries = 0
        package var keptBytes: Int64 = 0
    }

    /// Removes what `limit` asks, protecting the action results under `protectedKeys` and the blobs
    /// they name; `now` is in seconds since 1970. `removing` is called before each entry is removed.
    ///
    /// - Throws: the ``FileSystemError`` of a failed write of the index or the uses; nothing is removed then.
    package func collect(_ limit: CacheLimit, protecting protectedKeys: Set<ContentDigest>, now: Int64,
                         removing: (CacheInventory.Item) -> Void = { _ in }) throws -> Outcome {
        var uses = CacheEntryUses(loadingFrom: store.root)
        let inventory = CacheInventory(store: store, uses: uses)
        if limit.maxAge == nil, inventory.totalBytes <= limit.maxBytes ?? .max {
            // Nothing to remove: the records are not even read.
            return Outcome(keptEntries: inventory.items.count, keptBytes: inventory.totalBytes)
        }
        var plan = RemovalPlan(inventory: inventory, store: store, references: references)
        let protected = plan.closure(ofActionResults: protectedKeys)
        let order = plan.leastRecentlyUsedFirst()
        if let maxAge = limit.maxAge {
            for item in order where item.lastUse < now - maxAge && !protected.contains(item.id) {
                plan.remove(item.id)
            }
        }
        if let maxBytes = limit.maxBytes {
            for item in order where plan.keptBytes > maxBytes && !protected.contains(item.id) {
                plan.remove(item.id)
            }
            for item in order where plan.keptBytes > maxBytes && protected.contains(item.id) {
                plan.remove(item.id)
            }
        }

        let removed = plan.removed.sorted()
        let removedKeys = Set(removed.filter { $0.area == .actionResult }.map(\.digest))
        if !removedKeys.isEmpty {
            try IndexedArtifactStore.remove(removedKeys, fromIndexAt: indexFile)
        }
        uses.keepOnly(Set(plan.inventory.items.keys).subtracting(plan.removed))
        try uses.save(in: store.root)
        // Sorted by area: every action result before any blob.
        var outcome = Outcome()
        for id in removed {
            guard let item = plan.inventory.items[id] else { continue }
            removing(item)
            unlink(store.url(of: id).fileSystemPath)
            if id.area == .actionResult { outcome.removedActionResults += 1 } else { outcome.removedBlobs += 1 }
            outcome.removedBytes += item.bytes
        }
        outcome.keptEntries = plan.inventory.items.count - removed.count
        outcome.keptBytes = plan.keptBytes
        return outcome
    }
}

/// The entries a collection removes, grown one LRU candidate at a time with what must go with it.
private struct RemovalPlan {
    private(set) var inventory: CacheInventory
    private(set) var removed: Set<CacheEntryID> = []
    private(set) var keptBytes: Int64
    /// The blobs present that each action result names.
    private var blobsNamed: [ContentDigest: [ContentDigest]] = [:]
    /// The action results still kept that name each blob.
    private var namedBy: [ContentDigest: Set<ContentDigest>] = [:]

    /// Reads every action result; one that fails its check is removed by the store and left out.
    init(inventory: CacheInventory, store: DiskArtifactStore, references: (Data) -> [ContentDigest]) {
        self.inventory = inventory
        for id in inventory.items.keys where id.area == .actionResult {
            guard let record = store.actionResult(for: id.digest) else {
                self.inventory.drop(id)
                continue
            }
            let blobs = references(record).filter { inventory.items[CacheEntryID(.blob, $0)] != nil }
            blobsNamed[id.digest] = blobs
            for blob in blobs {
                namedBy[blob, default: []].insert(id.digest)
            }
        }
        keptBytes = self.inventory.totalBytes
    }

    /// The action results under `keys` that are present, and the blobs they name.
    func closure(ofActionResults keys: Set<ContentDigest>) -> Set<CacheEntryID> {
        var closure: Set<CacheEntryID> = []
        for key in keys where blobsNamed[key] != nil {
            closure.insert(CacheEntryID(.actionResult, key))
            for blob in blobsNamed[key] ?? [] {
                closure.insert(CacheEntryID(.blob, blob))
            }
        }
        return closure
    }

    /// Every entry, least recently used first; a blob counts as used when an action result naming it was.
    func leastRecentlyUsedFirst() -> [CacheInventory.Item] {
        let items = inventory.items.values.map { item in
            guard item.id.area == .blob else { return item }
            var blob = item
            for key in namedBy[item.id.digest] ?? [] {
                blob.lastUse = max(blob.lastUse, inventory.items[CacheEntryID(.actionResult, key)]?.lastUse ?? 0)
            }
            return blob
        }
        return items.sorted { ($0.lastUse, $0.id) < ($1.lastUse, $1.id) }
    }

    /// Plans to remove `id`: a blob with every action result naming it, an action result with the
    /// blobs no other kept action result names.
    mutating func remove(_ id: CacheEntryID) {
        guard !removed.contains(id), inventory.items[id] != nil else { return }
        switch id.area {
        case .actionResult:
            removeActionResult(id.digest)
        case .blob:
            for key in namedBy[id.digest] ?? [] {
                removeActionResult(key)
            }
            removeEntry(id)
        }
    }

    private mutating func removeActionResult(_ key: ContentDigest) {
        let id = CacheEntryID(.actionResult, key)
        guard !removed.contains(id) else { return }
        removeEntry(id)
        for blob in blobsNamed[key] ?? [] {
            namedBy[blob]?.remove(key)
            if namedBy[blob]?.isEmpty == true {
                removeEntry(CacheEntryID(.blob, blob))
            }
        }
    }

    private mutating func removeEntry(_ id: CacheEntryID) {
        guard let item = inventory.items[id], removed.insert(id).inserted else { return }
        keptBytes -= item.bytes
    }
}

/// How large and how old a cache may get.
package struct CacheLimit: Sendable, Equatable {
    /// Total bytes of the entries' files.
    package var maxBytes: Int64?
    /// Seconds since an entry's last use.
    package var maxAge: Int64?

    package init(maxBytes: Int64?, maxAge: Int64? = nil) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }
}

extension DiskArtifactStore {
    /// The file of an entry.
    package func url(of id: CacheEntryID) -> URL {
        id.area == .actionResult ? actionResultURL(for: id.digest) : blobURL(for: id.digest)
    }
}
