import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Vips

/// The render stage's result for one card: the scales the cache lacked, rendered and encoded, in
/// each of its locales.
struct RenderedCard: Sendable {
    let lookUp: CardLookUp
    let facts: CardFacts
    /// The new bitmaps, by scale.
    let bitmaps: [Int: EncodedBitmap]
    /// The background, when it was computed here rather than taken from the cache.
    let newBackground: (key: ContentDigest, image: BackgroundImage)?
    let stages: StageReport
    /// The card in each translated locale (``CardLookUp/translations``' order), painted over the same
    /// background; none of them holds it.
    var translations: [RenderedCard] = []
}

/// Renders what the look-up found missing of a card: decoding and painting on the worker pool,
/// the cached background read in between (its key needs the decoded size). A card whose facts the
/// cache lacks is painted at its smallest scale to measure them, even when that bitmap is cached.
/// The photo is decoded and its background computed (or read) once for all the card's locales, and
/// only the locales the cache lacks are painted.
struct CardRendering: Sendable {
    let pool: WorkerPool
    let records: RecordCache
    let maxPixels: Int
    /// Shared by the build's workers: how many pixels they paint at once.
    let budget: PaintBudget
    /// Used after each card is painted.
    let freeMemory = FreeMemoryReturn()

    /// Renders a card the cache lacks in some locale (`lookUp.cached` is nil). Throws ``CardFailure``
    /// when the card cannot be rendered and ``BuildCancelled`` when cancelled.
    func render(_ lookUp: CardLookUp, cancellation: Cancellation) async throws -> RenderedCard {
        let plan = lookUp.plan
        do {
            let photo = try await remotePhoto(of: plan.card)
            let prepared = try await pool.run {
                try cancellation.check()
                return try Self.prepare(plan, photo: photo, maxPixels: maxPixels)
            }
            let locales = [lookUp] + lookUp.translations
            let key = prepared.backgroundKey
            let cachedBackground = await cachedBackground(for: key)
            let background = try await pool.run { try cachedBackground ?? prepared.computeBackground() }
            let backgroundStage: StageReport.Stage = cachedBackground == nil ? .rendered : .cached
            // One locale after another: a build's parallelism comes from its cards, and one canvas at a
            // time per card keeps memory flat however many locales the catalog has.
            var painted: [RenderedCard] = []
            for locale in locales {
                let card = locale.plan.card
                do {
                    painted.append(try await paint(locale, prepared: card.isTranslation
                                                       ? prepared.relabeled(as: card.withRemoteImage(atPath: photo),
                                                                            fonts: locale.plan.fonts) : prepared,
                                                   over: background, backgroundStage: backgroundStage,
                                                   cancellation: cancellation))
                } catch let error as BuildCancelled {
                    throw error
                } catch {
                    throw CardFailure(card: card, error: error)
                }
            }
            let source = painted.removeFirst()
            var stages = source.stages
            stages.background = backgroundStage
            if !painted.isEmpty {
                stages.translations = Dictionary(uniqueKeysWithValues: painted.map {
                    ($0.lookUp.plan.card.locale!.description, $0.stages.images)
                })
            }
            return RenderedCard(lookUp: lookUp, facts: source.facts, bitmaps: source.bitmaps,
                                newBackground: cachedBackground == nil ? (key, background) : nil,
                                stages: stages, translations: painted)
        } catch let error as CardFailure {
            throw error
        } catch let error as BuildCancelled {
            throw error
        } catch {
            throw CardFailure(card: plan.card, field: nil, error: error)
        }
    }

    /// `lookUp`'s missing scales of the card in its locale, `prepared` for it, painted over
    /// `background` on the pool; its facts measured when the cache lacks them.
    private func paint(_ lookUp: CardLookUp, prepared: PreparedCard, over background: BackgroundImage,
                       backgroundStage: StageReport.Stage, cancellation: Cancellation) async throws -> RenderedCard {
        let missing = lookUp.missingScales
        var stages = StageReport.allCached(lookUp.images.keys)
        if let facts = lookUp.facts, missing.isEmpty {
            return RenderedCard(lookUp: lookUp, facts: facts, bitmaps: [:], newBackground: nil, stages: stages)
        }
        let (bitmaps, facts) = try await pool.run {
            defer { freeMemory.giveBack() }
            if let facts = lookUp.facts {
                return (try prepared.render(scales: missing, background: background, budget: budget,
                                            cancellation: cancellation), facts)
            }
            let rendered = try prepared.renderMeasuringPlaceholder(scales: missing, background: background,
                                                                   budget: budget, cancellation: cancellation)
            return (rendered.bitmaps, CardFacts(prepared, placeholder: rendered.placeholder))
        }
        stages.background = backgroundStage
        for scale in missing {
            stages.images[CardManifest.scaleName(scale)] = .rendered
        }
        return RenderedCard(lookUp: lookUp, facts: facts, bitmaps: bitmaps, newBackground: nil, stages: stages)
    }

    /// The file of `card`'s photo when its bytes are in the remote cache (``Card/remoteImageDigest``),
    /// fetched into the store now; nil for a card whose image is a file here.
    private func remotePhoto(of card: Card) async throws -> String? {
        guard let digest = card.remoteImageDigest else { return nil }
        guard let path = await records.store.blobFile(digest) else {
            throw CardFailure(card: card, field: "image", reason: PhotoFetchFailure(
                card.imageURL ?? "", "its bytes are no longer in the remote cache; the next build fetches it again").description)
        }
        return path
    }

    /// The planned card decoded and laid out, its photo read from `photo` when its bytes came from the
    /// remote cache; an image that cannot be used fails the card's `image`.
    static func prepare(_ plan: CardPlan, photo: String? = nil, maxPixels: Int) throws -> PreparedCard {
        do {
            return try PreparedCard(card: plan.card.withRemoteImage(atPath: photo), fonts: plan.fonts,
                                    imageDigest: plan.inputs.image, maxPixels: maxPixels)
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

    /// The card as the cache now holds it, in every locale. Throws the ``FileSystemError`` of a write that failed.
    func store(_ rendered: RenderedCard) async throws -> CachedCard {
        if let (key, background) = rendered.newBackground {
            try await records.save(try await records.store.storeBlob(background.serialized()), for: key)
        }
        var cached = try await storeBitmaps(of: rendered)
        for translation in rendered.translations {
            cached.translations.append(try await storeBitmaps(of: translation))
        }
        return cached
    }

    /// The bitmaps and facts of the card in its own locale.
    private func storeBitmaps(of rendered: RenderedCard) async throws -> CachedCard {
        let plan = rendered.lookUp.plan
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
