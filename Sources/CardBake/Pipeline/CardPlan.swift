import CardBakeCatalog
import CardBakeManifest

/// The plan stage's result for one card: everything known before any pixel is decoded.
///
/// A class, so that the later stages' results, which each hold their card's plan, share one copy:
/// a card and its style are several hundred bytes, and a build holds every card's results at once.
final class CardPlan: Sendable {
    let card: Card
    let fonts: ResolvedFonts
    let inputs: CardInputs
    /// What the build says about the card without failing it: characters no installed font draws.
    let warnings: [BuildReport.Warning]

    init(card: Card, fonts: ResolvedFonts, inputs: CardInputs, warnings: [BuildReport.Warning]) {
        self.card = card
        self.fonts = fonts
        self.inputs = inputs
        self.warnings = warnings
    }

    /// The card's key, as the manifest records it.
    var key: ContentDigest { inputs.cardKey(scales: card.style.scales) }

    /// The key of the card's bitmap at `scale`, one of its style's scales.
    func imageKey(scale: Int) -> ContentDigest { inputs.imageKey(scale: scale, of: card.style.scales) }
}
