import CardBakeCache

extension RecordCache {
    /// The records of the card's bitmaps this cache holds, by scale.
    func cachedImages(of plan: CardPlan) -> [Int: RenderedImageRecord] {
        var images: [Int: RenderedImageRecord] = [:]
        for scale in plan.card.style.scales {
            images[scale] = record(RenderedImageRecord.self, for: plan.inputs.imageKey(scale: scale))
        }
        return images
    }
}
