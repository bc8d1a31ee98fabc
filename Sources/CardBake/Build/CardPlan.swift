import Foundation

/// One card of the build, with everything known before any pixel is decoded: its inputs' digests,
/// its keys, and which scales the cache already holds.
struct CardPlan: Sendable {
    let card: Card
    let fonts: ResolvedFonts
    let inputs: CardInputs
    /// Records found in the action cache, by scale.
    var cached: [Int: RenderedImageRecord]

    var missingScales: [Int] { card.style.scales.filter { cached[$0] == nil } }
    var key: Digest { inputs.cardKey(scales: card.style.scales) }
}

/// A card that could not be built, and why.
public struct CardFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let cardID: String
    public let index: Int
    /// The card's image, the file most failures are about.
    public let image: URL
    public let reason: String

    public var description: String { "cards[\(index)] (\"\(cardID)\"), image \(image.path): \(reason)" }
}
