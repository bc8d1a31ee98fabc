import Foundation

/// One card of a catalog: an image, a title, a description and the style it is rendered with.
public struct Card: Sendable, Equatable {
    /// 1–100 characters of `a-z 0-9 . _ -`, starting with a letter or digit; unique in its catalog.
    public var id: String
    /// Absolute path of the source image (the catalog stores it relative to its own folder).
    public var image: URL
    public var title: String
    public var description: String
    /// The catalog's style with this card's own `style` block, if any, applied over it, then the overrides.
    public var style: CardStyle
    /// Zero-based position in the catalog's `cards` array, for messages (`cards[3]`).
    public var index: Int

    public init(id: String, image: URL, title: String, description: String, style: CardStyle, index: Int) {
        self.id = id
        self.image = image
        self.title = title
        self.description = description
        self.style = style
        self.index = index
    }
}
