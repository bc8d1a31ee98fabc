import CVips
import CVipsShim
import Foundation

/// What an encoded image declares in its header, read without decoding pixels.
public struct VipsImageHeader: Sendable, Equatable {
    /// Size as the image is shown: EXIF orientations 5–8 swap the stored width and height.
    public var width: Int
    public var height: Int
}

extension VipsImage {
    /// Reads only the header of an encoded image (JPEG, PNG, WebP, TIFF, GIF, HEIF, …).
    public static func header(of encoded: Data) throws(VipsError) -> VipsImageHeader {
        try VipsCall.step { () throws(VipsError) -> VipsImageHeader in
            let image = try make("load") { out in
                encoded.withUnsafeBytes { cvips_open_header($0.baseAddress, $0.count, out) }
            }
            let swapsAxes = (5...8).contains(image.intField("orientation") ?? 1)
            return VipsImageHeader(width: swapsAxes ? image.height : image.width,
                                   height: swapsAxes ? image.width : image.height)
        }
    }

    /// Decodes once with shrink-on-load and EXIF orientation applied, to at most `maxWidth` pixels
    /// wide (never upscaled), then normalises to 8-bit sRGB with 3 bands, plus alpha when the source has it.
    /// Embedded ICC profiles are honoured; CMYK, gray, 16-bit and palette sources all arrive as 8-bit sRGB.
    /// The result is in memory: derive any number of images from it.
    ///
    /// One step of ``VipsCall``: damage that shows only as the pixels are decoded runs the whole decode
    /// again, from the bytes, so that its error has the decoder's own messages.
    public static func decode(_ encoded: Data, maxWidth: Int) throws(VipsError) -> VipsImage {
        // libvips reads the bytes in place, so the whole pipeline runs before they go.
        try encoded.withUnsafeBytes { bytes in
            Result { () throws(VipsError) -> VipsImage in
                try VipsCall.step { () throws(VipsError) -> VipsImage in
                    let decoded = try make("thumbnail") { cvips_thumbnail(bytes.baseAddress, bytes.count, $0, Int32(maxWidth)) }
                    let srgb = try decoded.colourspace(VIPS_INTERPRETATION_sRGB)
                    let eightBit = srgb.format == VIPS_FORMAT_UCHAR ? srgb : try srgb.cast(to: VIPS_FORMAT_UCHAR)
                    // Keep colour and at most one alpha band (some TIFFs carry extra bands).
                    let wanted = eightBit.hasAlpha ? 4 : 3
                    let bands = eightBit.bands == wanted ? eightBit : try eightBit.extractBands(0, count: min(wanted, eightBit.bands))
                    return try make("copy_memory", computes: true) { cvips_copy_memory(bands.pointer, $0) }
                }
            }
        }.get()
    }

    private func intField(_ name: String) -> Int? {
        guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, name, &value) == 0 else {
            // A missing field is no failure: its message is not the step's.
            vips_error_clear()
            return nil
        }
        return Int(value)
    }
}
