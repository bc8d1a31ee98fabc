import Foundation

/// Typed records over an ``ArtifactStoring`` action cache: JSON in, JSON out; an entry that does
/// not decode is a miss.
struct RecordCache: Sendable {
    let store: any ArtifactStoring

    func record<Record: Decodable>(_ type: Record.Type, for key: Digest) -> Record? {
        guard let data = store.actionResult(for: key) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    func save<Record: Encodable>(_ record: Record, for key: Digest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try store.storeActionResult(try encoder.encode(record), for: key)
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
