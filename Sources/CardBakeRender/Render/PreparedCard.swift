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
/// only once the source's size is: make a prepared card (decode, layout, placeholder colour), then
/// ``render(scales:background:)`` with the cached background or ``computeBackground()``.
package struct PreparedCard: Sendable {
    package let card: Card
    package let layout: CardLayout
    /// The blurred background this card is painted over.
    package let backgroundEffect: BackgroundEffect
    /// The source's dominant colour, shown before the bitmap is decoded.
    package let placeholder: CardColor
    private let source: SourceImage
    private let imageDigest: ContentDigest
    private let fonts: ResolvedFonts

    /// Decodes `card`'s image, whose bytes must hash to `imageDigest`, at the size its largest scale
    /// needs. Throws ``RenderError`` for an image that cannot be used (too many pixels, damaged,
    /// changed since it was hashed) and ``VipsError`` for anything else.
    package init(card: Card, fonts: ResolvedFonts, imageDigest: ContentDigest, maxPixels: Int) throws {
        let style = card.style
        let largest = style.scales.max() ?? 1
        // Decoded for the largest scale even when only smaller ones are wanted: every scale's pixels
        // depend on the decoded size, so a scale rendered alone must come out as it does with the others.
        source = try SourceImage.load(card.image, digest: imageDigest, maxPixels: maxPixels,
                                      maxWidth: Int((style.cardWidth * Double(largest)).rounded(.up)))
        layout = CardLayout(style: style, sourceWidth: source.width, sourceHeight: source.height)
        backgroundEffect = BackgroundEffect(blur: style.blur, cardWidth: layout.card.width,
                                            cardHeight: layout.card.height, maxScale: largest)
        placeholder = try DominantColor.of(source.decoded)
        self.card = card
        self.imageDigest = imageDigest
        self.fonts = fonts
    }

    /// The background's cache key.
    package var backgroundKey: ContentDigest {
        backgroundEffect.key(imageDigest: imageDigest, textAreaHeight: card.style.textAreaHeight)
    }

    /// The background effect applied to the source.
    package func computeBackground() throws -> BackgroundImage {
        try backgroundEffect.apply(to: source.decoded)
    }

    /// The card at each of `scales`, painted over `background` and encoded in the card's format.
    /// Throws ``RenderError`` or ``VipsError``; checks `cancellation` between scales.
    package func render(scales: [Int], background: BackgroundImage,
                       cancellation: Cancellation = Cancellation()) throws -> [Int: EncodedBitmap] {
        let renderer = CardRenderer(card: card, layout: layout, fonts: fonts)
        var bitmaps: [Int: EncodedBitmap] = [:]
        for scale in scales {
            try cancellation.check()
            let bitmap = try renderer.render(source: source.decoded, background: background, scale: scale)
            bitmaps[scale] = EncodedBitmap(data: try bitmap.encoded(as: card.style.output.encoder),
                                           width: bitmap.width, height: bitmap.height)
        }
        return bitmaps
    }
}
