import Vips

/// The glyphs of a text set in a colour font (emoji), in their own colours, as an RGBA layer.
package struct ColorGlyphs {
    /// Four float bands: red, green and blue (0–255, not premultiplied), then alpha (0–255).
    package let image: VipsImage
    /// Each pixel's alpha (0–255), row by row.
    package let alpha: [UInt8]

    /// Converts `width × height` pixels in cairo's ARGB32: premultiplied, alpha in the top 8 bits,
    /// then red, green and blue.
    package init(argb pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int) throws(VipsError) {
        precondition(pixels.count == width * height, "pixel count does not match the size")
        let alpha = pixels.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        var samples = [Float](repeating: 0, count: pixels.count * 4)
        for (index, pixel) in pixels.enumerated() where alpha[index] > 0 {
            let opacity = Float(alpha[index])
            for band in 0..<3 {
                let premultiplied = Float(UInt8(truncatingIfNeeded: pixel >> (16 - 8 * band)))
                samples[index * 4 + band] = premultiplied * 255 / opacity
            }
            samples[index * 4 + 3] = opacity
        }
        self.alpha = alpha
        image = try VipsImage.fromPixels(samples, width: width, height: height, bands: 4)
    }
}
