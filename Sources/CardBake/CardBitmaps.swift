import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Vips

/// One card rendered in memory, outside any build: nothing is read from a cache or written.
///
///     let catalog = try CatalogLoader.load(from: URL(fileURLWithPath: "Input/catalog.json"))
///     let card = try CardBitmaps(rendering: catalog.cards[0])
///     let png2x = card.images[2]?.data
public struct CardBitmaps: Sendable {
    /// The card's size in points.
    public let width: Double
    public let height: Double
    /// What to show before a bitmap is decoded, as the manifest gives it: the card's mean colour in
    /// Oklab, its ThumbHash and a tiny blurred WebP.
    public let placeholder: CardManifest.Placeholder
    /// The card at each scale of its style, encoded in its style's format.
    public let images: [Int: EncodedBitmap]

    /// Renders `card` from its image file and fonts as they are now. Throws ``CardFailure``, naming
    /// the card's field at fault when there is one (`image`, `style.title`, …).
    public init(rendering card: Card, maxPixels: Int = BuildRequest.defaultMaxPixels) throws {
        let plan = try Planner(statCache: StatCache(loadingFrom: nil), fonts: FontResolver()).plan(card).get()
        try Vips.start()
        let prepared = try CardRendering.prepare(plan, maxPixels: maxPixels)
        let rendered: (bitmaps: [Int: EncodedBitmap], placeholder: CardManifest.Placeholder)
        do {
            rendered = try prepared.renderMeasuringPlaceholder(scales: card.style.scales,
                                                               background: prepared.computeBackground())
        } catch {
            throw CardFailure(card: card, error: error)
        }
        let facts = CardFacts(prepared, placeholder: rendered.placeholder)
        images = rendered.bitmaps
        (width, height, placeholder) = (facts.width, facts.height, facts.placeholder)
    }
}
