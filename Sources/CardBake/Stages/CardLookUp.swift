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
    /// What the cache holds of the card in each of its translated locales (``CardPlan/translations``).
    var translations: [CardLookUp] = []

    /// Scales to render.
    var missingScales: [Int] { plan.card.style.scales.filter { images[$0] == nil } }

    /// Everything the output needs, when nothing is missing in any locale.
    var cached: CachedCard? {
        guard let facts, missingScales.isEmpty else { return nil }
        var translated: [CachedCard] = []
        for translation in translations {
            guard let cached = translation.cached else { return nil }
            translated.append(cached)
        }
        return CachedCard(plan: plan, facts: facts, images: images, translations: translated)
    }
}

/// A card the cache holds whole: its facts and a record of every scale, each bitmap in the output
/// folder or intact in the store. What the write stage takes.
struct CachedCard: Sendable {
    let plan: CardPlan
    let facts: CardFacts
    let images: [Int: RenderedImageRecord]
    /// The card in each of its translated locales.
    var translations: [CachedCard] = []

    /// The card's entry in the manifest: with its locale, and the card in each translated locale,
    /// for a catalog with `locales`.
    var entry: CardManifest.Entry {
        let card = plan.card
        var entry = CardManifest.Entry(id: card.id, title: card.title, description: card.description, size: size,
                                       key: plan.key, placeholder: facts.placeholder, images: imageEntries,
                                       inputs: plan.inputs)
        guard let locale = card.locale else { return entry }
        entry.card.locale = locale
        entry.card.localizations = [:]
        entry.localeBuilds = [:]
        for translation in translations {
            let tag = translation.plan.card.locale!.description
            entry.card.localizations![tag] = CardManifest.Localization(
                title: translation.plan.card.title, description: translation.plan.card.description,
                size: translation.size == size ? nil : translation.size,
                placeholder: translation.facts.placeholder == facts.placeholder ? nil : translation.facts.placeholder,
                images: translation.imageEntries)
            entry.localeBuilds![tag] = CardManifest.LocaleBuild(key: translation.plan.key, inputs: translation.plan.inputs)
        }
        return entry
    }

    private var size: CardManifest.Size { CardManifest.Size(width: facts.width, height: facts.height) }

    /// The card's images in its own locale, by scale name.
    private var imageEntries: [String: CardManifest.Image] {
        var entries: [String: CardManifest.Image] = [:]
        for scale in plan.card.style.scales {
            guard let record = images[scale] else { preconditionFailure("a cached card has every scale") }
            entries[CardManifest.scaleName(scale)] = CardManifest.Image(
                file: OutputFolder.file(for: plan.card, scale: scale), width: record.width, height: record.height,
                bytes: record.bytes, sha256: record.blob)
        }
        return entries
    }
}

/// Finds what the cache holds of planned cards. A bitmap counts only when the output folder
/// already has its bytes or the store holds it intact, so a lost or damaged blob sends its scale to
/// rendering here rather than failing the write.
struct CacheLookUp: Sendable {
    let records: RecordCache
    let outputs: OutputFolder

    /// What the cache holds of the card of `plan` in every locale.
    func lookUp(_ plan: CardPlan) async -> CardLookUp {
        var found = await lookUpInOwnLocale(plan)
        for translation in plan.translations {
            found.translations.append(await lookUpInOwnLocale(translation))
        }
        return found
    }

    private func lookUpInOwnLocale(_ plan: CardPlan) async -> CardLookUp {
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
