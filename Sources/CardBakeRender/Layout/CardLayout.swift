import CardBakeCatalog

/// Where everything on a card goes, in points (CARD_SPEC.md, "Geometry"). Pure arithmetic: no pixels here.
package struct CardLayout: Sendable, Hashable {
    /// How the source fills the feature frame.
    package enum FeatureScaling: Sendable, Hashable {
        /// The whole source, fitted to the card's width: CARD_SPEC.md's F = ceil(W · h / w).
        case aspectFit
        /// The source's centre, cropped to the frame's aspect as the background is: the source is so tall
        /// for its width that fitting it would pass the style's ``CardStyle/featureHeightLimit``, or so wide
        /// that it would fall short of its ``CardStyle/featureHeightFloor``.
        case aspectFill
    }

    /// W × (F + T).
    package let card: PointRect
    /// (0, 0, W, F), where F = ceil(W · h / w), held between the style's ``CardStyle/featureHeightFloor``
    /// and ``CardStyle/featureHeightLimit``.
    package let feature: PointRect
    /// Whether the feature shows the whole source or its centre.
    package let featureScaling: FeatureScaling
    /// (20, F − 50, W − 40, 40): one line.
    package let title: PointRect
    /// (24, F + 20, W − 48, T − 40): wrapped and justified.
    package let description: PointRect

    /// Points of the source's width the feature shows at full height: the card's width, or more when
    /// the feature is the centre of a source too wide for it. Decoding needs this many pixels per point.
    package let sourceWidthShown: Double

    /// Lays out a card for a source that is `sourceWidth × sourceHeight` pixels after EXIF orientation.
    package init(style: CardStyle, sourceWidth: Int, sourceHeight: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "a source image has at least one pixel")
        let width = style.cardWidth
        let aspect = Double(sourceWidth) / Double(sourceHeight)
        let fittedHeight = (width / aspect).rounded(.up)
        let featureHeight = min(max(fittedHeight, style.featureHeightFloor), style.featureHeightLimit)
        featureScaling = featureHeight == fittedHeight ? .aspectFit : .aspectFill
        sourceWidthShown = featureScaling == .aspectFill ? max(width, featureHeight * aspect) : width
        let textArea = style.textAreaHeight
        card = PointRect(x: 0, y: 0, width: width, height: featureHeight + textArea)
        feature = PointRect(x: 0, y: 0, width: width, height: featureHeight)
        title = PointRect(x: 20, y: featureHeight - 50, width: width - 40, height: 40)
        description = PointRect(x: 24, y: featureHeight + 20, width: width - 48, height: textArea - 40)
    }

    /// The width in pixels to decode the source at for a card rendered up to `scale`.
    package func decodeWidth(atScale scale: Int) -> Int {
        Int((sourceWidthShown * Double(scale)).rounded(.up))
    }

    /// The card's size in pixels at `scale`.
    package func pixelSize(atScale scale: Int) -> (width: Int, height: Int) {
        let frame = card.pixels(atScale: scale)
        return (frame.width, frame.height)
    }
}
