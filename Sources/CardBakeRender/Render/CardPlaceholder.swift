import CardBakeKit
import Foundation
import Vips

/// What an app or a web page shows in a card's place before its bitmap is decoded, all measured on
/// the card painted at its smallest scale: the ``PlaceholderColor``, the card's ThumbHash, and a
/// tiny blurred copy as a WebP data URL.
package enum CardPlaceholder {
    /// The data URL picture's width in pixels: a browser stretching it to the card's size gives a
    /// smooth blur. Lossy WebP keeps it to a few hundred bytes (bench/README.md, "The placeholder's data URL").
    static let dataURLWidth = 16
    static let dataURLQuality = 60
    /// The blur's sigma on the data URL picture, in its pixels: enough to soften the steps a
    /// browser's stretching would show, little enough to keep the card's layout visible.
    static let dataURLBlur = 0.6

    /// The placeholder of `card`, a rendered card: opaque 8-bit sRGB, three bands.
    package static func measure(_ card: VipsImage) throws(VipsError) -> CardManifest.Placeholder {
        let samples: [UInt8] = try card.pixels()
        let copy = try VipsImage.fromPixels(samples, width: card.width, height: card.height, bands: 3).labelledSRGB()
        // ThumbHash takes at most 100 pixels a side.
        let thumbnail = try copy.resized(fittingIn: 100)
        let rgb: [UInt8] = try thumbnail.pixels()
        var rgba: [UInt8] = []
        rgba.reserveCapacity(rgb.count / 3 * 4)
        for pixel in stride(from: 0, to: rgb.count, by: 3) {
            rgba.append(contentsOf: rgb[pixel..<pixel + 3])
            rgba.append(255)
        }
        let thumbHash = ThumbHash(encodingRGBA: rgba, width: thumbnail.width, height: thumbnail.height)
        let tinyHeight = max(1, (dataURLWidth * thumbnail.height + thumbnail.width / 2) / thumbnail.width)
        let tiny = try thumbnail.resized(toWidth: dataURLWidth, height: tinyHeight)
            .blurredExtendingEdges(sigma: dataURLBlur).roundedToUInt8()
        let webp = try tiny.encoded(as: .webp(quality: dataURLQuality))
        return CardManifest.Placeholder(color: PlaceholderColor.of(samples).description, thumbhash: thumbHash.base64,
                                        dataURL: "data:image/webp;base64," + webp.base64EncodedString())
    }
}

extension VipsImage {
    /// The image scaled so that its longer side is `side` pixels, keeping its aspect ratio: a card
    /// is small, so with lanczos alone (no box shrink first).
    func resized(fittingIn side: Int) throws(VipsError) -> VipsImage {
        let longer = max(width, height)
        return try resized(toWidth: max(1, (width * side + longer / 2) / longer),
                           height: max(1, (height * side + longer / 2) / longer), boxShrinkFirst: false)
    }
}
