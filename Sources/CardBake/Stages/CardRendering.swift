import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Vips

/// The render stage's result for one card: the scales the cache lacked, rendered and encoded.
struct RenderedCard: Sendable {
    let lookUp: CardLookUp
    let facts: CardFacts
    /// The new bitmaps, by scale.
    let bitmaps: [Int: EncodedBitmap]
    /// The background, when it was computed here rather than taken from the cache.
    let newBackground: (key: ContentDigest, image: BackgroundImage)?
    let stages: StageReport
}

/// Renders what the look-up found missing of a card: decoding and painting on the worker pool,
/// the cached background read in between (its key needs the decoded size). A card whose facts the
/// cache lacks is painted at its smallest scale to measure them, even when that bitmap is cached.
struct CardRendering: Sendable {
    let pool: WorkerPool
    let records: RecordCache
    let maxPixels: Int
    /// Shared by the build's workers: how many pixels they paint at once.
    let budget: PaintBudget
    /// Used after each card is painted.
    let freeMemory = FreeMemoryReturn()

    /// Throws ``CardFailure`` when the card cannot be rendered and ``BuildCancelled`` when cancelled.
    func render(_ lookUp: CardLookUp, cancellation: Cancellation) async throws -> RenderedCard {
        let plan = lookUp.plan
        do {
            let prepared = try await pool.run {
                try cancellation.check()
                return try Self.prepare(plan, maxPixels: maxPixels)
            }
            let missing = lookUp.missingScales
            var stages = StageReport.allCached(lookUp.images.keys)
            if let facts = lookUp.facts, missing.isEmpty {
                return RenderedCard(lookUp: lookUp, facts: facts, bitmaps: [:], newBackground: nil, stages: stages)
            }
            let key = prepared.backgroundKey
            let cachedBackground = await cachedBackground(for: key)
            let (bitmaps, facts, background) = try await pool.run {
                defer { freeMemory.giveBack() }
                let background = try cachedBackground ?? prepared.computeBackground()
                if let facts = lookUp.facts {
                    return (try prepared.render(scales: missing, background: background, budget: budget,
                                                cancellation: cancellation),
                            facts, background)
                }
                let rendered = try prepared.renderMeasuringPlaceholder(scales: missing, background: background,
                                                                       budget: budget, cancellation: cancellation)
                return (rendered.bitmaps, CardFacts(prepared, placeholder: rendered.placeholder), background)
            }
            stages.background = cachedBackground == nil ? .rendered : .cached
            for scale in missing {
                stages.images[CardManifest.scaleName(scale)] = .rendered
            }
            return RenderedCard(lookUp: lookUp, facts: facts, bitmaps: bitmaps,
                                newBackground: cachedBackground == nil ? (key, background) : nil, stages: stages)
        } catch let error as CardFailure {
            throw error
        } catch let error as BuildCancelled {
            throw error
        } catch {
            throw CardFailure(card: plan.card, field: nil, error: error)
        }
    }

    /// The planned card decoded and laid out; an image that cannot be used fails the card's `image`.
    static func prepare(_ plan: CardPlan, maxPixels: Int) throws -> PreparedCard {
        do {
            return try PreparedCard(card: plan.card, fonts: plan.fonts, imageDigest: plan.inputs.image,
                                    maxPixels: maxPixels)
        } catch let error as RenderError {
            // Only reading and decoding the image throws this here.
            throw CardFailure(card: plan.card, field: "image", error: error)
        }
    }

    private func cachedBackground(for key: ContentDigest) async -> BackgroundImage? {
        guard let record = await records.record(ContentDigest.self, for: key),
              let blob = await records.store.blob(record) else { return nil }
        return BackgroundImage(serialized: blob)
    }
}

/// Keeps what rendering produced in the cache: bitmaps and background in the content store,
/// their records and the card's facts in the action cache.
struct CardStoring: Sendable {
    let records: RecordCache

    /// The card as the cache now holds it. Throws the ``FileSystemError`` of a write that failed.
    func store(_ rendered: RenderedCard) async throws -> CachedCard {
        let plan = rendered.lookUp.plan
        if let (key, background) = rendered.newBackground {
            try await records.save(try await records.store.storeBlob(background.serialized()), for: key)
        }
        var images = rendered.lookUp.images
        for (scale, bitmap) in rendered.bitmaps.sorted(by: { $0.key < $1.key }) {
            let record = RenderedImageRecord(blob: try await records.store.storeBlob(bitmap.data),
                                             bytes: bitmap.data.count, width: bitmap.width, height: bitmap.height)
            try await records.save(record, for: plan.imageKey(scale: scale))
            images[scale] = record
        }
        try await records.save(rendered.facts, for: plan.key)
        return CachedCard(plan: plan, facts: rendered.facts, images: images)
    }
}
