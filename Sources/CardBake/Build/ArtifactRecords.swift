/// What the action cache remembers of a card's bitmap at one scale.
struct RenderedImageRecord: Codable, Sendable, Equatable {
    /// Content digest of the encoded bytes in the content-addressed store.
    var blob: Digest
    var bytes: Int
    var width: Int
    var height: Int
    /// Facts about the whole card, the same in every scale's record.
    var card: CardFacts
}

/// Properties of a card found while rendering it, needed for the manifest.
struct CardFacts: Codable, Sendable, Equatable {
    /// Size in points.
    var width: Double
    var height: Double
    /// The dominant colour as `#RRGGBB`.
    var placeholder: String
}

/// What the action cache remembers of a card's background effect.
struct BackgroundRecord: Codable, Sendable, Equatable {
    var blob: Digest
}
