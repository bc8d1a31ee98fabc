import CTextRaster
import Vips

/// Turns plain text into an 8-bit coverage mask with Pango (see CTextRaster for why not `vips_text`),
/// and its emoji into a colour image.
package enum TextRasterizer {
    package struct Mask {
        /// One band, 8 bits: coverage 0–255 of every glyph not in `colorGlyphs`, `frame` grown by
        /// `padding` on every side.
        let image: VipsImage
        /// The image's samples, row by row.
        let pixels: [UInt8]
        /// The glyphs set in a colour font, the size of `image`; nil when there are none.
        let colorGlyphs: ColorGlyphs?
        let padding: Int
        let truncated: Bool

        /// The coverage of the whole text, row by row: `pixels` with `colorGlyphs` drawn over them.
        /// It is `pixels` when there are no colour glyphs.
        var wholeCoverage: [UInt8] {
            guard let colorGlyphs else { return pixels }
            return zip(pixels, colorGlyphs.alpha).map { text, color in
                let (text, color) = (Int(text), Int(color))
                return UInt8((text * 255 + color * (255 - text) + 127) / 255)
            }
        }
    }

    package enum Mode {
        /// One line, ellipsized at the frame's width, centred vertically.
        case singleLine
        /// Wrapped and justified; lines past the frame's height dropped, the last visible one ellipsized.
        case wrapped
    }

    package static func rasterize(_ text: String, font: TextFont, size: Double, frame: PixelRect,
                                  mode: Mode, padding: Int) throws(RenderError) -> Mask {
        var mask = ctext_mask()
        var error: UnsafeMutablePointer<CChar>?
        let status = font.withCFont { font in
            text.withCString { textPointer in
                var request = ctext_request(text: textPointer, font: font, size: size,
                                            width: Int32(frame.width), height: Int32(frame.height),
                                            single_line: mode == .singleLine ? 1 : 0, padding: Int32(padding))
                return ctext_render(&request, &mask, &error)
            }
        }
        guard status == 0 else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            ctext_error_free(error)
            throw .text(message)
        }
        defer { ctext_mask_free(&mask) }
        let (width, height) = (Int(mask.width), Int(mask.height))
        let pixels = Array(UnsafeBufferPointer(start: mask.pixels, count: width * height))
        do {
            let image = try VipsImage.fromPixels(pixels, width: width, height: height, bands: 1)
            let colorGlyphs = try mask.color.map { (color) throws(VipsError) in
                try ColorGlyphs(argb: UnsafeBufferPointer(start: color, count: width * height), width: width, height: height)
            }
            return Mask(image: image, pixels: pixels, colorGlyphs: colorGlyphs, padding: padding,
                        truncated: mask.truncated != 0)
        } catch {
            throw .vips(error)
        }
    }
}
