import CardBakeCatalog
import Vips

/// CARD_SPEC.md's background: the source aspect-filled to the card, a gaussian blur with
/// extended edges, saturation `c' = L + s·(c − L)`, then a source-over tint.
package struct BackgroundEffect: Sendable, Hashable {
    /// The blur's sigma in pixels of the reduced copy. 4 px keeps the reduced image far above the
    /// blur's frequency content, so scaling it up shows no blockiness or seams.
    package static let reducedSigma = 4.0
    /// Gray the transparent parts of a source are laid on before blurring.
    package static let backdrop: [Double] = [128, 128, 128]

    package let blur: BlurStyle
    /// Points of the card the background covers.
    package let cardWidth: Double
    package let cardHeight: Double
    /// Pixels per point of the reduced copy; never more than the largest output scale.
    package let resolution: Double
    /// The largest output scale, which the source is decoded for.
    package let maxScale: Int

    package init(blur: BlurStyle, cardWidth: Double, cardHeight: Double, maxScale: Int) {
        self.blur = blur
        self.cardWidth = cardWidth
        self.cardHeight = cardHeight
        self.maxScale = maxScale
        let wanted = blur.radius > 0 ? Self.reducedSigma / blur.radius : Double(maxScale)
        self.resolution = min(Double(maxScale), wanted)
    }

    /// Reduced size in pixels: the width rounds, the height follows the same pixels-per-point.
    package var pixelWidth: Int { max(1, Int((cardWidth * resolution).rounded())) }
    package var pixelHeight: Int {
        max(1, Int((cardHeight * Double(pixelWidth) / cardWidth).rounded()))
    }

    /// Applies the effect to a decoded source (8-bit sRGB, with or without alpha).
    package func apply(to source: VipsImage) throws(VipsError) -> BackgroundImage {
        let opaque = source.hasAlpha ? try source.flattened(over: Self.backdrop) : source
        let width = pixelWidth, height = pixelHeight
        // Aspect-fill (cover): centre-crop the source to the card's aspect at full resolution, where
        // rounding the crop costs under a source pixel, then scale it to the reduced size.
        let cropped = try opaque.centreCropped(toAspect: cardWidth / cardHeight)
            .resized(toWidth: width, height: height)
        let blurred = try cropped.castToFloat()
            .blurredExtendingEdges(sigma: blur.radius * Double(width) / cardWidth)
        var samples: [Float] = try blurred.pixels()
        adjustColours(&samples)
        return BackgroundImage(width: width, height: height, samples: samples)
    }

    /// Saturation (clamped to 0–255) then the tint, in place on interleaved RGB.
    package func adjustColours(_ samples: inout [Float]) {
        let s = Float(blur.saturation)
        let tintAlpha = Float(blur.tint.alpha)
        let tint = [Float(blur.tint.red), Float(blur.tint.green), Float(blur.tint.blue)].map { $0 * tintAlpha }
        let keep = 1 - tintAlpha
        var index = 0
        while index < samples.count {
            let r = samples[index], g = samples[index + 1], b = samples[index + 2]
            let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
            for band in 0..<3 {
                let saturated = min(max(luma + s * (samples[index + band] - luma), 0), 255)
                samples[index + band] = saturated * keep + tint[band]
            }
            index += 3
        }
    }
}
