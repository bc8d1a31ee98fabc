import CardBakeCatalog
import CardBakeManifest

/// The plan stage's result for one card: everything known before any pixel is decoded.
struct CardPlan: Sendable {
    let card: Card
    let fonts: ResolvedFonts
    let inputs: CardInputs
    /// What the build says about the card without failing it: characters no installed font draws.
    let warnings: [BuildReport.Warning]

    /// The card's key, as the manifest records it.
    var key: ContentDigest { inputs.cardKey(scales: card.style.scales) }

    /// The key of the card's bitmap at `scale`, one of its style's scales.
    func imageKey(scale: Int) -> ContentDigest { inputs.imageKey(scale: scale, of: card.style.scales) }
}
