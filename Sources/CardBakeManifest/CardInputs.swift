/// Digests of everything a card's pixels depend on, grouped the way `cardbake check` explains a
/// change. Two cards with equal inputs render to the same bytes on the same machine.
public struct CardInputs: Sendable, Hashable, Codable {
    /// The source image's bytes.
    public var image: ContentDigest
    /// Title and description.
    public var text: ContentDigest
    /// Every style value except the list of scales and the fonts.
    public var style: ContentDigest
    /// The fonts the title and description resolve to: each family and its file's content.
    public var fonts: ContentDigest
    /// The renderer's version salt and the versions of libvips, libjpeg-turbo and libdeflate.
    public var renderer: ContentDigest

    public init(image: ContentDigest, text: ContentDigest, style: ContentDigest, fonts: ContentDigest,
                renderer: ContentDigest) {
        self.image = image
        self.text = text
        self.style = style
        self.fonts = fonts
        self.renderer = renderer
    }

    /// A group of inputs, as `check` names a change.
    public enum Group: CaseIterable, Sendable, CustomStringConvertible {
        case image, text, style, fonts, renderer

        public var description: String {
            switch self {
            case .image: "image changed"
            case .text: "title or description changed"
            case .style: "style changed"
            case .fonts: "font changed"
            case .renderer: "renderer or its libraries (libvips, libjpeg-turbo, libdeflate) changed"
            }
        }
    }

    /// The groups whose digests differ from `other`'s.
    public func differences(from other: CardInputs) -> [Group] {
        Group.allCases.filter { self[$0] != other[$0] }
    }

    private subscript(group: Group) -> ContentDigest {
        switch group {
        case .image: image
        case .text: text
        case .style: style
        case .fonts: fonts
        case .renderer: renderer
        }
    }
}
