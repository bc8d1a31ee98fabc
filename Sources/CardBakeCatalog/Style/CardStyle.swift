import Foundation

/// Everything that decides how a card looks and is encoded. The defaults are CARD_SPEC.md.
///
/// Lengths are in points; a card rendered at scale `s` multiplies them by `s`.
public struct CardStyle: Sendable, Hashable {
    /// W: the card's width in points (1...2048).
    public var cardWidth: Double = 320
    /// T: height of the text area below the feature image, in points (0...4096).
    public var textAreaHeight: Double = 300
    /// The feature image's greatest height in points (1...8192); nil means 3 × `cardWidth`.
    /// cardbake's extension of CARD_SPEC.md: see ``featureHeightLimit``.
    public var maxFeatureHeight: Double?
    /// The feature image's least height in points (1...8192): 100, the least that puts the title's frame
    /// (F − 50, 40 tall) inside the feature's lower half, which the gradient darkens. cardbake's extension
    /// of CARD_SPEC.md: see ``featureHeightFloor``.
    public var minFeatureHeight: Double = 100
    /// Scales to render, ascending and without repeats, each 1...4.
    public var scales: [Int] = [1, 2, 3]
    public var output: OutputFormat = OutputFormat()
    public var blur: BlurStyle = BlurStyle()
    public var title: TextStyle = .defaultTitle
    public var description: TextStyle = .defaultDescription
    public var border: BorderStyle = BorderStyle()

    public init() {}

    /// The feature's greatest height in points: `maxFeatureHeight`, or 3 × `cardWidth` when it is not set, so
    /// that by default every photo up to three times as tall as wide (9:16 portraits included) is fitted
    /// whole, at any card width. A source taller for its width is centre-cropped to a feature this tall
    /// instead (see ``CardLayout``).
    public var featureHeightLimit: Double { maxFeatureHeight ?? 3 * cardWidth }

    /// The feature's least height in points: `minFeatureHeight`, or ``featureHeightLimit`` when that is less.
    /// A source so wide for its height that fitting it would make a shorter feature is centre-cropped to a
    /// feature this tall instead (see ``CardLayout``), so the title stays on the photo.
    public var featureHeightFloor: Double { min(minFeatureHeight, featureHeightLimit) }

    /// Pixel height of the tallest card this style renders, one whose feature is ``featureHeightLimit``
    /// tall, at its largest scale. (Widths need no such bound: 2048 points at scale 4 suit every encoder.)
    public var tallestCardPixelHeight: Int {
        Int(((featureHeightLimit + textAreaHeight) * Double(scales.max() ?? 1)).rounded(.up))
    }

    /// Whether every card of this style can be encoded in its format. The catalog refuses a style that
    /// cannot; a caller that changes `scales` or `output` afterwards must check again.
    public var tallestCardFitsEncoder: Bool { tallestCardPixelHeight <= output.kind.maxDimension }
}

/// The encoder and its settings.
public struct OutputFormat: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case png, jpeg, webp, heic, avif

        /// The largest width or height in pixels the encoder writes: WebP's 16,383, libjpeg's 65,500,
        /// for PNG the format's own 2^31 − 1, and for HEIC and AVIF 16,384: libheif (1.15) refuses to
        /// decode a larger image, though its encoders write one.
        public var maxDimension: Int {
            switch self {
            case .png: Int(Int32.max)
            case .jpeg: 65_500
            case .webp: 16_383
            case .heic, .avif: 16_384
            }
        }

        /// The quality a style that sets none encodes with: 85 for WebP, HEIC and AVIF. PNG has none, and
        /// JPEG's (with its chroma sampling) is picked per image to keep the fidelity floor (README,
        /// "Which format to ship").
        public var defaultQuality: Int? {
            switch self {
            case .png, .jpeg: nil
            case .webp, .heic, .avif: 85
            }
        }

        /// File name extension of the encoded images.
        public var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            case .heic: "heic"
            case .avif: "avif"
            }
        }
    }

    /// Catalog key `format`. JPEG by default: the format an app decodes fastest at the fidelity floor
    /// (README, "Which format to ship").
    public var kind: Kind = .jpeg
    /// Catalog key `quality`: 1...100, used by JPEG, WebP, HEIC and AVIF; nil takes the format's
    /// ``Kind/defaultQuality``.
    public var quality: Int?
    /// The quality the lossy encoders use: `quality`, else the format's default (nil for PNG).
    public var effectiveQuality: Int? { quality ?? kind.defaultQuality }
    /// Whether each image's quality is picked to keep the fidelity floor: a JPEG whose style sets no
    /// quality starts from the cheapest encoding to decode and goes up where an image needs it (README,
    /// "Which format to ship").
    public var picksQualityPerImage: Bool { kind == .jpeg && quality == nil }
    /// Catalog key `compression`: PNG level 0...9 on zlib's scale, which the encoder maps onto
    /// libdeflate's (docs/catalog.md). The default, 2 with adaptive filters, was chosen from
    /// `make bench`'s format table with zlib: about 4 times faster to encode than zlib's usual 6 for
    /// files about 13 % larger (bench/RESULTS.md); libdeflate writes it smaller and faster still.
    public var pngCompression: Int = 2
    /// Catalog key `pngFilter`: the PNG row filter.
    public var pngFilter: PNGFilter = .adaptive

    /// How PNG rows are filtered before deflate.
    public enum PNGFilter: String, CaseIterable, Sendable, Hashable {
        /// No filter: fastest, largest for photographs.
        case none
        case sub, up, average, paeth
        /// Each row gets the filter that suits it best (libpng's heuristic).
        case adaptive
    }

    public init() {}
}

/// The background effect: blur, then saturation, then a tint (CARD_SPEC.md, "Background effect").
public struct BlurStyle: Sendable, Hashable {
    /// Gaussian sigma in points (0...100); 0 turns the blur off.
    public var radius: Double = 30
    /// Saturation factor (0...4): 1 leaves colours, 0 makes gray, 1.8 is the default boost.
    public var saturation: Double = 1.8
    /// Source-over fill applied last.
    public var tint: CardColor = CardColor(red: 128, green: 128, blue: 128, alpha: 0.3)

    public init() {}
}

/// A drop shadow under text.
public struct ShadowStyle: Sendable, Hashable {
    public var color: CardColor = CardColor(red: 0, green: 0, blue: 0, alpha: 0.3)
    /// Offset in points (each -100...100); positive y moves the shadow down.
    public var offsetX: Double = 0
    public var offsetY: Double = 2
    /// Blur radius in points (0...100), as UIKit's `shadowBlurRadius`.
    public var radius: Double = 3

    public init(color: CardColor = CardColor(red: 0, green: 0, blue: 0, alpha: 0.3),
                offsetX: Double = 0, offsetY: Double = 2, radius: Double = 3) {
        self.color = color
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.radius = radius
    }
}

/// How a title or description is drawn.
public struct TextStyle: Sendable, Hashable {
    /// A font family as fontconfig names it, e.g. `Lato Heavy`. With `fontFile`, the family that file provides is used instead.
    public var font: String
    /// A font file (absolute once validated; relative to the catalog's folder in JSON).
    public var fontFile: URL?
    /// The weight on CSS's scale (``weightRange``: 400 regular, 700 bold); nil takes the weight of the face
    /// `font` or `fontFile` names (800 for Lato Heavy). Set, or with `italic`, it picks a face within the
    /// named face's whole family (Lato Heavy's is Lato). Fallback fonts for other scripts are asked at
    /// this weight too.
    public var weight: Int?
    /// Whether to draw with the family's italic face; fallback fonts are asked in italic too.
    public var italic: Bool = false
    /// Size in points (1...200).
    public var size: Double
    public var color: CardColor = .white
    /// nil draws no shadow.
    public var shadow: ShadowStyle?

    public init(font: String, fontFile: URL? = nil, weight: Int? = nil, italic: Bool = false, size: Double,
                color: CardColor = .white, shadow: ShadowStyle?) {
        self.font = font
        self.fontFile = fontFile
        self.weight = weight
        self.italic = italic
        self.size = size
        self.color = color
        self.shadow = shadow
    }

    /// The weights a style may ask for, as CSS numbers them.
    public static let weightRange = 100...900
    /// The names CSS gives two weights, which a catalog may use for them.
    public static let weightKeywords = ["normal": 400, "bold": 700]

    public static let defaultTitle = TextStyle(font: "Lato Heavy", size: 30, shadow: ShadowStyle(offsetY: 2))
    public static let defaultDescription = TextStyle(font: "Lato Medium", size: 16, shadow: ShadowStyle(offsetY: 1))
}

/// The hairline inside the card's edge.
public struct BorderStyle: Sendable, Hashable {
    /// Width in points (0...100); 0 draws no border.
    public var width: Double = 1
    /// HSB(0, 0, 0.85) at 20 %.
    public var color: CardColor = CardColor(red: 0xD9, green: 0xD9, blue: 0xD9, alpha: 0.2)

    public init() {}
}
