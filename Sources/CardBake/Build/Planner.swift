import Foundation

/// Works out each card's inputs and keys, and what the cache already has, without decoding images.
struct Planner: Sendable {
    let statCache: StatCache
    let fonts: FontResolver
    let records: RecordCache

    /// The plan for one card, or why it cannot be built (missing image, unknown font, …).
    func plan(_ card: Card) -> Result<CardPlan, CardFailure> {
        do {
            let fonts = ResolvedFonts(
                title: try CardFailure.field("style.title", of: card) { () throws(RenderError) in
                    try self.fonts.font(for: card.style.title)
                },
                description: try CardFailure.field("style.description", of: card) { () throws(RenderError) in
                    try self.fonts.font(for: card.style.description)
                })
            let digest = try CardFailure.field("image", of: card) { () throws(RenderError) in
                do {
                    return try statCache.digest(ofFileAt: card.image)
                } catch {
                    throw .unreadableImage(path: card.image.path, reason: RenderError.cause(of: error))
                }
            }
            let inputs = CardInputs(imageDigest: digest, card: card, fonts: fonts)
            var cached: [Int: RenderedImageRecord] = [:]
            for scale in card.style.scales {
                cached[scale] = records.record(RenderedImageRecord.self, for: inputs.imageKey(scale: scale))
            }
            return .success(CardPlan(card: card, fonts: fonts, inputs: inputs, cached: cached))
        } catch {
            return .failure(error)
        }
    }
}
