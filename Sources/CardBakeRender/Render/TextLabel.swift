import CardBakeCatalog
import Vips

/// A title or description drawn as composite layers: its shadow (cast by the whole text), the text
/// in the style's colour, then any emoji (glyphs of a colour font) in their own colours, which the
/// style's colour and its alpha do not change.
package struct TextLabel {
    package let text: String
    package let style: TextStyle
    /// The font the style resolved to.
    package let font: TextFont
    package let frame: PointRect
    package let mode: TextRasterizer.Mode

    /// The layers at `scale`, positioned in card pixels; none for empty text or an empty frame.
    /// Throws ``RenderError`` or ``VipsError``.
    package func layers(atScale scale: Int) throws -> [CompositeLayer] {
        let pixelFrame = frame.pixels(atScale: scale)
        guard !text.isEmpty, !pixelFrame.isEmpty else { return [] }
        let s = Double(scale)
        // UIKit's shadow blur radius is about two gaussian sigmas.
        let shadowSigma = (style.shadow?.radius ?? 0) / 2 * s
        let shadowReach = style.shadow.map { max(abs($0.offsetX), abs($0.offsetY)) * s + 3 * shadowSigma } ?? 0
        // Room for glyph overhang (italics, accents) and the shadow's spread.
        let padding = Int((style.size * s / 2 + shadowReach).rounded(.up))
        let mask = try TextRasterizer.rasterize(text, font: font, size: style.size * s,
                                                frame: pixelFrame, mode: mode, padding: padding)
        let origin = (x: pixelFrame.x - padding, y: pixelFrame.y - padding)
        var layers: [CompositeLayer] = []
        if let shadow = style.shadow, shadow.color.alpha > 0 {
            let (width, height) = (mask.image.width, mask.image.height)
            let coverage = mask.wholeCoverage
            let blurred = shadowSigma > 0.1
                ? try VipsImage.fromPixels(GaussianBlur(sigma: shadowSigma).blurred(coverage, width: width, height: height),
                                           width: width, height: height, bands: 1)
                : try VipsImage.fromPixels(coverage, width: width, height: height, bands: 1)
            layers.append(CompositeLayer(coverage: blurred, color: shadow.color,
                                         x: origin.x + Int((shadow.offsetX * s).rounded()),
                                         y: origin.y + Int((shadow.offsetY * s).rounded())))
        }
        layers.append(CompositeLayer(coverage: mask.image, color: style.color, x: origin.x, y: origin.y))
        if let colorGlyphs = mask.colorGlyphs {
            layers.append(CompositeLayer(image: colorGlyphs.image, x: origin.x, y: origin.y))
        }
        return layers
    }
}
