import CTextRaster
import Vips

/// Turns plain text into an 8-bit coverage mask with Pango (see CTextRaster for why not `vips_text`).
package enum TextRasterizer {
    package struct Mask {
        /// One band, 8 bits: coverage 0–255, `frame` grown by `padding` on every side.
        let image: VipsImage
        /// The image's samples, row by row.
        let pixels: [UInt8]
        let padding: Int
        let truncated: Bool
    }

    package enum Mode {
        /// One line, ellipsized at the frame's width, centred vertically.
        case singleLine
        /// Wrapped and justified; lines past the frame's height dropped, the last visible one ellipsized.
        case wrapped
    }

    package static func rasterize(_ text: String, family: String, size: Double, frame: PixelRect,
                          mode: Mode, padding: Int) throws(RenderError) -> Mask {
        var mask = ctext_mask()
        var error: UnsafeMutablePointer<CChar>?
        let status = text.withCString { textPointer in
            family.withCString { familyPointer in
                var request = ctext_request(text: textPointer, family: familyPointer, size: size,
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
        let pixels = Array(UnsafeBufferPointer(start: mask.pixels, count: Int(mask.width) * Int(mask.height)))
        do {
            let image = try VipsImage.fromPixels(pixels, width: Int(mask.width), height: Int(mask.height), bands: 1)
            return Mask(image: image, pixels: pixels, padding: padding, truncated: mask.truncated != 0)
        } catch {
            throw .vips(error)
        }
    }
}
