import CardBakeCache
import CardBakeCatalog
import CardBakeManifest

/// The look-up stage's result for one card: what the cache holds of it.
struct CardLookUp: Sendable {
    let plan: CardPlan
    /// What rendering found out about the card, when the cache has it.
    let facts: CardFacts?
    /// The scales whose bitmaps are already in the output folder or intact in the store.
    let images: [Int: RenderedImageRecord]

    /// Scales to render.
    var missingScales: [Int] { plan.card.style.scales.filter { images[$0] == nil } }

    /// Everything the output needs, when nothing is missing.
    var cached: CachedCard? {
        guard let facts, missingScales.isEmpty else { return nil }
        return CachedCard(plan: plan, facts: facts, images: images)
    }
}

/// A card the cache holds whole: its facts and a record of every scale, each bitmap in the output
/// folder or intact in the store. What the write stage takes.
struct CachedCard: Sendable {
    let plan: CardPlan
    let facts: CardFacts
    let images: [Int: RenderedImageRecord]

    /// The card's entry in the manifest.
    var entry: CardManifest.Entry {
        let card = plan.card
        var entries: [String: CardManifest.Image] = [:]
        for scale in card.style.scales {
            guard let record = images[scale] else { preconditionFailure("a cached card has every scale") }
            entries[CardManifest.scaleName(scale)] = CardManifest.Image(
                file: OutputFolder.file(for: card, scale: scale), width: record.width, height: record.height,
                bytes: record.bytes, sha256: record.blob)
        }
        return CardManifest.Entry(id: card.id, title: card.title, description: card.description,
                                  size: CardManifest.Size(width: facts.width, height: facts.height),
                                  key: plan.key, placeholder: facts.placeholder, images: entries, inputs: plan.inputs)
    }
}

/// Finds what the cache holds of planned cards. A bitmap counts only when the output folder
/// already has its bytes or the store holds it intact, so a lost or damaged blob sends its scale to
/// rendering here rather than failing the write.
struct CacheLookUp: Sendable {
    let records: RecordCache
    let outputs: OutputFolder

    func lookUp(_ plan: CardPlan) async -> CardLookUp {
        var images: [Int: RenderedImageRecord] = [:]
        for scale in plan.card.style.scales {
            guard let record = await records.record(RenderedImageRecord.self, for: plan.imageKey(scale: scale))
            else { continue }
            if outputs.holds(record.blob, as: OutputFolder.file(for: plan.card, scale: scale)) {
                images[scale] = record
            } else if await records.store.containsBlob(record.blob) {
                images[scale] = record
            }
        }
        let facts = await records.record(CardFacts.self, for: plan.key)
        return CardLookUp(plan: plan, facts: facts, images: images)
    }
}
