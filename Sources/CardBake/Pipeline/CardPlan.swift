import CardBakeCatalog
import CardBakeManifest

/// The plan stage's result for one card: everything known before any pixel is decoded.
struct CardPlan: Sendable {
    let card: Card
    let fonts: ResolvedFonts
    let inputs: CardInputs

    /// The card's key, as the manifest records it.
    var key: ContentDigest { inputs.cardKey(scales: card.style.scales) }
}
