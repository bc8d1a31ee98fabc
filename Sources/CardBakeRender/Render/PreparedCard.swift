import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Vips

/// A card's bitmap at one scale, encoded in the card's output format.
public struct EncodedBitmap: Sendable, Equatable {
    public let data: Data
    /// In pixels.
    public let width: Int
    public let height: Int
}

/// One card decoded and laid out, ready to paint at any of its scales: the render module's entry.
///
/// Rendering takes two steps so that a cache can supply the background effect, whose key is known
/// only once the source's size is: make a prepared card (decode, layout), then
/// ``render(scales:background:cancellation:)`` with the cached background or ``computeBackground()``,
/// or ``renderMeasuringPlaceholder(scales:background:cancellation:)`` when the placeholder is wanted too.
package struct PreparedCard: Sendable {
    package private(set) var card: Card
    package private(set) var layout: CardLayout
    /// The blurred background this card is painted over.
    package let backgroundEffect: BackgroundEffect
    private let source: SourceImage
    private let imageDigest: ContentDigest
    private var fonts: ResolvedFonts

    /// Decodes `card`'s image, whose bytes must hash to `imageDigest`, at the size its largest scale
    /// needs. Throws ``RenderError`` for an image that cannot be used (too many pixels, damaged,
    /// changed since it was hashed) and ``VipsError`` for anything else.
    package init(card: Card, fonts: ResolvedFonts, imageDigest: ContentDigest, maxPixels: Int) throws {
        let style = card.style
        let largest = style.scales.max() ?? 1
        // Decoded for the largest scale even when only smaller ones are wanted: every scale's pixels
        // depend on the decoded size, so a scale rendered alone must come out as it does with the others
        // (and a bitmap's key names the largest scale).
        source = try SourceImage.load(card.image, digest: imageDigest, maxPixels: maxPixels) { width, height in
            CardLayout(style: style, sourceWidth: width, sourceHeight: height).decodeWidth(atScale: largest)
        }
        layout = CardLayout(style: style, sourceWidth: source.width, sourceHeight: source.height)
        backgroundEffect = BackgroundEffect(blur: style.blur, cardWidth: layout.card.width,
                                            cardHeight: layout.card.height, maxScale: largest)
        self.card = card
        self.imageDigest = imageDigest
        self.fonts = fonts
    }

    /// This card as drawn in another of its locales: `localized` is this card in that locale
    /// (`Card.localized(_:)`), its style differing only in `title` and `description` (the most a
    /// catalog's `styles` change), with `fonts` resolved for it. The decoded source, the background
    /// effect and its key are shared, so a background computed for one serves every locale; only
    /// the text is laid out and painted anew.
    package func relabeled(as localized: Card, fonts: ResolvedFonts) -> PreparedCard {
        var sameButTexts = localized.style
        sameButTexts.title = card.style.title
        sameButTexts.description = card.style.description
        precondition(localized.imagePath == card.imagePath && sameButTexts == card.style,
                     "a card's locales differ in their texts and text styles only")
        var relabeled = self
        relabeled.card = localized
        relabeled.layout = CardLayout(style: localized.style, sourceWidth: source.width, sourceHeight: source.height)
        relabeled.fonts = fonts
        return relabeled
    }

    /// The background's cache key.
    package var backgroundKey: ContentDigest {
        backgroundEffect.key(imageDigest: imageDigest, textAreaHeight: card.style.textAreaHeight)
    }

    /// The background effect applied to the source.
    package func computeBackground() throws -> BackgroundImage {
        try backgroundEffect.apply(to: source.decoded)
    }

    /// The card at each of `scales`, painted over `background` and encoded in the card's format,
    /// each scale within `budget`. Throws ``RenderError`` or ``VipsError``; checks `cancellation`
    /// between scales.
    package func render(scales: [Int], background: BackgroundImage, budget: PaintBudget? = nil,
                        cancellation: Cancellation = Cancellation()) throws -> [Int: EncodedBitmap] {
        var bitmaps: [Int: EncodedBitmap] = [:]
        for scale in scales {
            try cancellation.check()
            bitmaps[scale] = try painting(scale: scale, within: budget) {
                try encoded(try paint(scale: scale, background: background), scale: scale)
            }
        }
        return bitmaps
    }

    /// As ``render(scales:background:budget:cancellation:)``, and the ``CardPlaceholder`` of the card
    /// painted at the smallest scale of its style, painted for it even when not among `scales`, so
    /// the placeholder does not depend on which scales a build renders.
    package func renderMeasuringPlaceholder(scales: [Int], background: BackgroundImage, budget: PaintBudget? = nil,
                                            cancellation: Cancellation = Cancellation())
        throws -> (bitmaps: [Int: EncodedBitmap], placeholder: CardManifest.Placeholder) {
        let smallest = card.style.scales.min() ?? 1
        try cancellation.check()
        let (smallestBitmap, placeholder) = try painting(scale: smallest, within: budget) {
            // Measured and encoded: painted once, into memory.
            let measured = try paint(scale: smallest, background: background).inMemory()
            return (scales.contains(smallest) ? try encoded(measured, scale: smallest) : nil,
                    try CardPlaceholder.measure(measured))
        }
        var bitmaps = try render(scales: scales.filter { $0 != smallest }, background: background, budget: budget,
                                 cancellation: cancellation)
        bitmaps[smallest] = smallestBitmap
        return (bitmaps, placeholder)
    }

    private func painting<Result>(scale: Int, within budget: PaintBudget?, _ body: () throws -> Result) throws -> Result {
        guard let budget else { return try body() }
        let card = layout.card.pixels(atScale: scale)
        return try budget.paint(pixels: card.width * card.height, body)
    }

    private func paint(scale: Int, background: BackgroundImage) throws -> VipsImage {
        try CardRenderer(card: card, layout: layout, fonts: fonts)
            .render(source: source.decoded, background: background, scale: scale)
    }

    private func encoded(_ bitmap: VipsImage, scale: Int) throws(VipsError) -> EncodedBitmap {
        let output = card.style.output
        let data = output.picksQualityPerImage
            ? try FidelityFloor.standard.jpeg(of: bitmap, textTop: layout.title.pixels(atScale: scale).y)
            : try bitmap.encoded(as: output.encoder)
        return EncodedBitmap(data: data, width: bitmap.width, height: bitmap.height)
    }
}
