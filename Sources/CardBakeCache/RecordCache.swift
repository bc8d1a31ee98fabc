import CardBakeManifest
import Foundation

/// Typed records over an ``ArtifactStoring`` action cache; an entry that does not decode is a miss.
package struct RecordCache: Sendable {
    package let store: any ArtifactStoring

    package init(store: any ArtifactStoring) {
        self.store = store
    }

    package func record<Record: CacheRecord>(_ type: Record.Type, for key: ContentDigest) async -> Record? {
        await store.actionResult(for: key).flatMap(Record.init(cacheBytes:))
    }

    package func save(_ record: some CacheRecord, for key: ContentDigest) async throws {
        try await store.storeActionResult(record.cacheBytes, for: key)
    }
}
