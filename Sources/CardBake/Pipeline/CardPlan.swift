import CardBakeCatalog
import CardBakeManifest
import Foundation

/// One card of the build, with everything known before any pixel is decoded: its inputs' digests,
/// its keys, and which scales the cache already holds.
struct CardPlan: Sendable {
    let card: Card
    let fonts: ResolvedFonts
    let inputs: CardInputs
    /// Records of the card's bitmaps the cache holds, by scale (filled in by the build, not by planning).
    var cached: [Int: RenderedImageRecord] = [:]

    var missingScales: [Int] { card.style.scales.filter { cached[$0] == nil } }
    var key: ContentDigest { inputs.cardKey(scales: card.style.scales) }
}
