/// Where everything on a card goes, in points (CARD_SPEC.md, "Geometry"). Pure arithmetic: no pixels here.
public struct CardLayout: Sendable, Hashable {
    /// W × (F + T).
    public let card: Rect
    /// (0, 0, W, F): the source aspect-fit to the card's width.
    public let feature: Rect
    /// (20, F − 50, W − 40, 40): one line.
    public let title: Rect
    /// (24, F + 20, W − 48, T − 40): wrapped and justified.
    public let description: Rect

    /// Lays out a card for a source that is `sourceWidth × sourceHeight` pixels after EXIF orientation.
    public init(style: Style, sourceWidth: Int, sourceHeight: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "a source image has at least one pixel")
        let width = style.cardWidth
        let featureHeight = (width * Double(sourceHeight) / Double(sourceWidth)).rounded(.up)
        let textArea = style.textAreaHeight
        card = Rect(x: 0, y: 0, width: width, height: featureHeight + textArea)
        feature = Rect(x: 0, y: 0, width: width, height: featureHeight)
        title = Rect(x: 20, y: featureHeight - 50, width: width - 40, height: 40)
        description = Rect(x: 24, y: featureHeight + 20, width: width - 48, height: textArea - 40)
    }

    /// The card's size in pixels at `scale`.
    public func pixelSize(atScale scale: Int) -> (width: Int, height: Int) {
        let frame = card.pixels(atScale: scale)
        return (frame.width, frame.height)
    }
}
