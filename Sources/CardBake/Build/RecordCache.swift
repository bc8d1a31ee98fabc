import Foundation

/// Typed records over an ``ArtifactStoring`` action cache; an entry that does not decode is a miss.
struct RecordCache: Sendable {
    let store: any ArtifactStoring

    func record<Record: CacheRecord>(_ type: Record.Type, for key: Digest) -> Record? {
        store.actionResult(for: key).flatMap(Record.init(cacheBytes:))
    }

    func save(_ record: some CacheRecord, for key: Digest) throws {
        try store.storeActionResult(record.cacheBytes, for: key)
    }

    /// The records of the card's bitmaps this cache holds, by scale.
    func cachedImages(of plan: CardPlan) -> [Int: RenderedImageRecord] {
        var images: [Int: RenderedImageRecord] = [:]
        for scale in plan.card.style.scales {
            images[scale] = record(RenderedImageRecord.self, for: plan.inputs.imageKey(scale: scale))
        }
        return images
    }
}
