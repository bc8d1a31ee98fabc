import CardBakeManifest
import Foundation

/// What a text style asks for: a family found through fontconfig, or a font file of its own, and
/// the weight and slant of the face wanted from it.
public struct FontRequest: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Source: Sendable, Hashable {
        case family(String)
        case file(URL)
    }

    public let source: Source
    /// CSS's weight; nil for the weight of the face `source` names.
    public let weight: Int?
    public let italic: Bool

    public init(_ source: Source, weight: Int? = nil, italic: Bool = false) {
        self.source = source
        self.weight = weight
        self.italic = italic
    }

    /// `family:Lato Heavy` or `file:/abs/path.ttf`, then ` weight:700` and ` italic` when asked:
    /// distinct for distinct requests, and their order.
    public var description: String {
        let source = switch source {
        case .family(let name): "family:" + name
        case .file(let url): "file:" + url.path
        }
        return source + (weight.map { " weight:\($0)" } ?? "") + (italic ? " italic" : "")
    }

    public static func < (lhs: FontRequest, rhs: FontRequest) -> Bool {
        lhs.description < rhs.description
    }
}

extension TextStyle {
    /// The font this style is drawn with, before resolution.
    public var fontRequest: FontRequest {
        FontRequest(fontFile.map(FontRequest.Source.file) ?? .family(font), weight: weight, italic: italic)
    }
}

/// A text style's font as it will be drawn: the family, weight and slant Pango is asked for (its
/// fallback fonts too) and the file of the face they select, whose content is part of every card key
/// that uses it.
public struct ResolvedFont: Sendable, Hashable {
    public let family: String
    /// On CSS's scale: the weight asked for, or the face's own when none was.
    public let weight: Int
    public let italic: Bool
    public let file: URL
    public let digest: ContentDigest

    public init(family: String, weight: Int, italic: Bool, file: URL, digest: ContentDigest) {
        self.family = family
        self.weight = weight
        self.italic = italic
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
