import CardBakeManifest
import Foundation

/// What a text style asks for: a family found through fontconfig, or a font file of its own.
public enum FontRequest: Sendable, Hashable, Comparable, CustomStringConvertible {
    case family(String)
    case file(URL)

    /// `family:Lato Heavy` or `file:/abs/path.ttf`: distinct for distinct requests, and their order.
    public var description: String {
        switch self {
        case .family(let name): "family:" + name
        case .file(let url): "file:" + url.path
        }
    }

    public static func < (lhs: FontRequest, rhs: FontRequest) -> Bool {
        lhs.description < rhs.description
    }
}

extension TextStyle {
    /// The font this style is drawn with, before resolution.
    public var fontRequest: FontRequest {
        fontFile.map(FontRequest.file) ?? .family(font)
    }
}

/// A text style's font as it will be drawn: the family Pango is asked for and the file behind it,
/// whose content is part of every card key that uses it.
public struct ResolvedFont: Sendable, Hashable {
    public let family: String
    public let file: URL
    public let digest: ContentDigest

    public init(family: String, file: URL, digest: ContentDigest) {
        self.family = family
        self.file = file
        self.digest = digest
    }
}

/// The fonts of one card.
public struct ResolvedFonts: Sendable, Hashable {
    public let title: ResolvedFont
    public let description: ResolvedFont

    public init(title: ResolvedFont, description: ResolvedFont) {
        self.title = title
        self.description = description
    }
}
