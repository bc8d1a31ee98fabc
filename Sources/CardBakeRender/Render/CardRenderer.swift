import CardBakeCatalog
import Vips

/// Composes one card at one scale into an opaque 8-bit sRGB bitmap, in CARD_SPEC.md's paint order:
/// background, feature image, gradient, title, description, border.
package struct CardRenderer {
    package let layout: CardLayout
    package let style: CardStyle
    package let title: TextLabel
    package let description: TextLabel

    package init(card: Card, layout: CardLayout, fonts: ResolvedFonts) {
        self.layout = layout
        self.style = card.style
        title = TextLabel(text: card.title, style: card.style.title, font: fonts.title.textFont(in: card.locale),
                          frame: layout.title, mode: .singleLine)
        description = TextLabel(text: card.description, style: card.style.description,
                                font: fonts.description.textFont(in: card.locale), frame: layout.description, mode: .wrapped)
    }

    /// `source` is the decoded image (8-bit sRGB, alpha allowed); `background` the card's effect.
    /// Throws ``RenderError`` or ``VipsError``.
    package func render(source: VipsImage, background: BackgroundImage, scale: Int) throws -> VipsImage {
        let card = layout.card.pixels(atScale: scale)
        let feature = layout.feature.pixels(atScale: scale)
        var canvas = CardCanvas(background: background, width: card.width, height: card.height)
        // Each layer is made and drawn in turn, so its libvips image (a text mask, a blurred shadow)
        // is freed once the canvas has read it, rather than every layer's being held until the end.
        try canvas.draw(CompositeLayer(image: try featureImage(from: source, frame: feature), x: 0, y: 0))
        if let gradient = try gradientLayer(feature: feature, scale: scale) {
            try canvas.draw(gradient)
        }
        for label in [title, description] {
            for layer in try label.layers(atScale: scale) {
                try canvas.draw(layer)
            }
        }
        for layer in try borderLayers(card: card, scale: scale) {
            try canvas.draw(layer)
        }
        return try canvas.bitmap()
    }

    /// The source as the layout shows it in the feature's `frame`: whole, or its centre cropped to the frame's aspect.
    private func featureImage(from source: VipsImage, frame: PixelRect) throws(VipsError) -> VipsImage {
        let shown = switch layout.featureScaling {
        case .aspectFit: source
        case .aspectFill: try source.centreCropped(toAspect: Double(frame.width) / Double(frame.height))
        }
        return try shown.resized(toWidth: frame.width, height: frame.height).labelledSRGB()
    }

    /// Black over the feature: alpha 0 down to its vertical middle, rising linearly to 1 at its
    /// bottom edge; a one-band coverage mask (0–255, kept as floats, not rounded) painted in black.
    private func gradientLayer(feature: PixelRect, scale: Int) throws(VipsError) -> CompositeLayer? {
        let s = Double(scale)
        let middle = layout.feature.height / 2
        let coverage = (0..<feature.height).map { row -> Float in
            let y = (Double(row) + 0.5) / s
            return Float(min(max((y - middle) / middle, 0), 1) * 255)
        }
        guard let first = coverage.firstIndex(where: { $0 > 0 }) else { return nil }
        let column = try VipsImage.fromPixels(Array(coverage[first...]), width: 1, height: coverage.count - first, bands: 1)
        return CompositeLayer(coverageColumn: column, across: feature.width, color: CardColor(red: 0, green: 0, blue: 0),
                              x: feature.x, y: feature.y + first)
    }

    /// The hairline inside the card's edge as four strips that do not overlap.
    private func borderLayers(card: PixelRect, scale: Int) throws(VipsError) -> [CompositeLayer] {
        let border = style.border
        guard border.width > 0, border.color.alpha > 0 else { return [] }
        let thickness = min(max(1, Int((border.width * Double(scale)).rounded())), card.width / 2, card.height / 2)
        guard thickness > 0 else { return [] }
        let rgba = [Float(border.color.red), Float(border.color.green), Float(border.color.blue),
                    Float(border.color.alpha * 255)]
        let inner = card.height - 2 * thickness
        let strips = [
            PixelRect(x: 0, y: 0, width: card.width, height: thickness),
            PixelRect(x: 0, y: card.height - thickness, width: card.width, height: thickness),
            PixelRect(x: 0, y: thickness, width: thickness, height: inner),
            PixelRect(x: card.width - thickness, y: thickness, width: thickness, height: inner),
        ]
        return try strips.filter { !$0.isEmpty }.map { (strip) throws(VipsError) -> CompositeLayer in
            CompositeLayer(image: try VipsImage.filled(width: strip.width, height: strip.height, with: rgba)
                            .labelledSRGB(), x: strip.x, y: strip.y)
        }
    }
}
