import Vips

/// A title or description drawn as composite layers: its shadow, then the text itself.
struct TextLabel {
    let text: String
    let style: TextStyle
    /// The fontconfig family the style resolved to.
    let family: String
    let frame: Rect
    let mode: TextRasterizer.Mode

    /// The layers at `scale`, positioned in card pixels; none for empty text or an empty frame.
    /// Throws ``RenderError`` or ``VipsError``.
    func layers(atScale scale: Int) throws -> [CompositeLayer] {
        let pixelFrame = frame.pixels(atScale: scale)
        guard !text.isEmpty, !pixelFrame.isEmpty else { return [] }
        let s = Double(scale)
        // UIKit's shadow blur radius is about two gaussian sigmas.
        let shadowSigma = (style.shadow?.radius ?? 0) / 2 * s
        let shadowReach = style.shadow.map { max(abs($0.offsetX), abs($0.offsetY)) * s + 3 * shadowSigma } ?? 0
        // Room for glyph overhang (italics, accents) and the shadow's spread.
        let padding = Int((style.size * s / 2 + shadowReach).rounded(.up))
        let mask = try TextRasterizer.rasterize(text, family: family, size: style.size * s,
                                                frame: pixelFrame, mode: mode, padding: padding)
        let origin = (x: pixelFrame.x - padding, y: pixelFrame.y - padding)
        var layers: [CompositeLayer] = []
        if let shadow = style.shadow, shadow.color.alpha > 0 {
            let blurred = try mask.image.castToFloat().gaussianBlurredIfNeeded(sigma: shadowSigma)
            layers.append(CompositeLayer(image: try blurred.tinted(shadow.color),
                                         x: origin.x + Int((shadow.offsetX * s).rounded()),
                                         y: origin.y + Int((shadow.offsetY * s).rounded())))
        }
        layers.append(CompositeLayer(image: try mask.image.tinted(style.color), x: origin.x, y: origin.y))
        return layers
    }
}

extension VipsImage {
    /// A one-band coverage mask (0–255) turned into an RGBA layer of `color`.
    func tinted(_ color: Color) throws(VipsError) -> VipsImage {
        try linear([0, 0, 0, color.alpha], [Double(color.red), Double(color.green), Double(color.blue), 0])
            .labelledSRGB()
    }

    func gaussianBlurredIfNeeded(sigma: Double) throws(VipsError) -> VipsImage {
        sigma > 0.1 ? try gaussianBlurred(sigma: sigma) : self
    }
}
