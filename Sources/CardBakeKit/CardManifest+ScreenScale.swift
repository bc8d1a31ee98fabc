extension CardManifest.Card {
    /// The scales the card was rendered at, smallest first (`[1, 2, 3]` for `1x`, `2x`, `3x`).
    public var scales: [Int] {
        images.keys.compactMap(CardManifest.scale(named:)).sorted()
    }

    /// The image to show on a screen of `screenScale` pixels a point (`UIScreen.scale`,
    /// `devicePixelRatio`): the smallest scale at or above it, so it is never enlarged, else the
    /// largest there is. Nil only for an entry with no images.
    public func image(forScreenScale screenScale: Double) -> CardManifest.Image? {
        let scales = scales
        guard let chosen = scales.first(where: { Double($0) >= screenScale }) ?? scales.last else { return nil }
        return images[CardManifest.scaleName(chosen)]
    }
}

extension CardManifest.Placeholder {
    /// ``thumbhash`` decoded; nil when it is not a ThumbHash in base64.
    public var decodedThumbHash: ThumbHash? { ThumbHash(base64: thumbhash) }
}
