import CVipsShim
import Foundation

/// Decodes JPEG straight to RGB samples with libjpeg-turbo: the samples libvips' loader gives for the
/// same file, at about half its cost for a whole card, because nothing but the decoder runs.
public enum JPEGSamples {
    /// Decodes `jpeg` into `samples`, which holds `height` rows of `width` RGB pixels. Throws when `jpeg`
    /// is not a JPEG of that size.
    public static func decodeRGB(_ jpeg: Data, into samples: UnsafeMutableBufferPointer<UInt8>,
                                 width: Int, height: Int) throws(VipsError) {
        precondition(samples.count == width * height * 3, "the buffer holds the image exactly")
        var message = [CChar](repeating: 0, count: 200)  // libjpeg's JMSG_LENGTH_MAX
        let result = jpeg.withUnsafeBytes { bytes in
            cvips_jpeg_decode_rgb(bytes.baseAddress, bytes.count, samples.baseAddress, Int32(width), Int32(height),
                                  &message)
        }
        if result != 0 {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw VipsError(operation: "jpeg decode", message: reason)
        }
    }
}
