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
    /// What the build says about the card without failing it: characters no installed font draws, in
    /// any of its locales.
    let warnings: [BuildReport.Warning]
    /// The plans of the card in each of its translated locales (``Card/localizations``' order), which
    /// share its image; empty for a catalog without `locales` and in a translation's plan.
    let translations: [CardPlan]

    /// The card's key, as the manifest records it.
    let key: ContentDigest
    /// The keys of the card's bitmaps, by scale.
    private let imageKeys: [Int: ContentDigest]

    init(card: Card, fonts: ResolvedFonts, inputs: CardInputs, warnings: [BuildReport.Warning],
         translations: [CardPlan] = []) {
        self.card = card
        self.fonts = fonts
        self.inputs = inputs
        self.warnings = warnings + translations.flatMap(\.warnings)
        self.translations = translations
        let scales = card.style.scales
        key = inputs.cardKey(scales: scales)
        imageKeys = Dictionary(uniqueKeysWithValues: scales.map { ($0, inputs.imageKey(scale: $0, of: scales)) })
    }

    /// This plan, then each translation's.
    var inEveryLocale: [CardPlan] { [self] + translations }

    /// The key of the card's bitmap at `scale`, one of its style's scales.
    func imageKey(scale: Int) -> ContentDigest {
        imageKeys[scale] ?? inputs.imageKey(scale: scale, of: card.style.scales)
    }

    /// What a ``RebuildMemo`` keeps of a card's plan: the plan, and the planner's settings it was made with.
    struct Kept: Sendable {
        let plan: CardPlan
        let installedFonts: ContentDigest?
        let strict: Bool
    }
}
