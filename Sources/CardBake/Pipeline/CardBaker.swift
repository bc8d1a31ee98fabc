import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation
import Vips

/// Renders the scales of one planned card that the cache does not have, storing each bitmap and
/// the background in the cache as it goes. Runs on a worker thread; one card at a time per worker.
struct CardBaker: Sendable {
    let store: any ArtifactStoring
    let records: RecordCache
    let maxPixels: Int

    struct Outcome: Sendable {
        /// Every scale of the card, from the cache or just rendered.
        var images: [Int: RenderedImageRecord]
        var stages: StageReport
    }

    /// Throws ``CardFailure`` when the card cannot be rendered, ``BuildCancelled`` when cancelled, and
    /// the ``FileSystemError`` of a cache write that failed (disk full, a write limit): no fault of the card.
    func bake(_ plan: CardPlan, cancellation: Cancellation) throws -> Outcome {
        do {
            return try render(plan, cancellation: cancellation)
        } catch let error as CardFailure {
            throw error
        } catch let error as BuildCancelled {
            throw error
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw CardFailure(card: plan.card, field: nil, error: error)
        }
    }

    private func render(_ plan: CardPlan, cancellation: Cancellation) throws -> Outcome {
        var stages = StageReport.allCached(plan.cached.keys)
        let missing = plan.missingScales
        let card = plan.card
        let style = card.style
        // Decoded for the card's largest scale even when only smaller ones are missing: the pixels of
        // every scale depend on the decoded size, so a scale rendered alone (after its cached bitmap
        // was lost) must come out as it did with the others.
        guard !missing.isEmpty, let largest = style.scales.max() else {
            return Outcome(images: plan.cached, stages: stages)
        }
        let source = try CardFailure.field("image", of: card) { () throws(RenderError) in
            try SourceImage.load(card.image, digest: plan.inputs.image, maxPixels: maxPixels,
                                 maxWidth: Int((style.cardWidth * Double(largest)).rounded(.up)))
        }
        let layout = CardLayout(style: style, sourceWidth: source.width, sourceHeight: source.height)
        let (background, backgroundStage) = try background(for: plan, layout: layout, source: source.decoded)
        stages.background = backgroundStage
        let facts = CardFacts(width: layout.card.width, height: layout.card.height,
                              placeholder: try DominantColor.of(source.decoded).description)
        let renderer = CardRenderer(card: card, layout: layout, fonts: plan.fonts)
        var images = plan.cached
        for scale in missing {
            try cancellation.check()
            let bitmap = try renderer.render(source: source.decoded, background: background, scale: scale)
            let encoded = try bitmap.encoded(as: style.output.encoder)
            let record = RenderedImageRecord(blob: try store.storeBlob(encoded), bytes: encoded.count,
                                             width: bitmap.width, height: bitmap.height, card: facts)
            try records.save(record, for: plan.inputs.imageKey(scale: scale))
            images[scale] = record
            stages.images[CardManifest.scaleName(scale)] = .rendered
        }
        return Outcome(images: images, stages: stages)
    }

    /// The card's background effect from the cache, or computed and cached.
    private func background(for plan: CardPlan, layout: CardLayout,
                            source: VipsImage) throws -> (BackgroundImage, StageReport.Stage) {
        let style = plan.card.style
        let effect = BackgroundEffect(blur: style.blur, cardWidth: layout.card.width,
                                      cardHeight: layout.card.height, maxScale: style.scales.max() ?? 1)
        let key = effect.key(imageDigest: plan.inputs.image, textAreaHeight: style.textAreaHeight)
        if let record = records.record(ContentDigest.self, for: key),
           let blob = store.blob(record),
           let cached = BackgroundImage(serialized: blob) {
            return (cached, .cached)
        }
        let background = try effect.apply(to: source)
        try records.save(try store.storeBlob(background.serialized()), for: key)
        return (background, .rendered)
    }
}

