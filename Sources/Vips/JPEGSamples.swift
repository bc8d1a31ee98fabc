import CVipsShim
import Foundation

/// JPEG to and from RGB samples in memory, straight with libjpeg-turbo: the samples libvips' loader
/// gives for the same file, and the bytes its saver writes for the same samples, at a fraction of its
/// cost for a whole card, because nothing but the codec runs (no pipeline, no threads, no copy).
public enum JPEGSamples {
    /// Decodes `jpeg` into `samples`, which holds `height` rows of `width` RGB pixels. Throws when `jpeg`
    /// is not a JPEG of that size.
    public static func decodeRGB(_ jpeg: Data, into samples: UnsafeMutableBufferPointer<UInt8>,
                                 width: Int, height: Int) throws(VipsError) {
        precondition(samples.count == width * height * 3, "the buffer holds the image exactly")
        try call("jpeg decode") { message in
            jpeg.withUnsafeBytes { bytes in
                cvips_jpeg_decode_rgb(bytes.baseAddress, bytes.count, samples.baseAddress, Int32(width), Int32(height),
                                      message)
            }
        }
    }

    /// `samples`, `height` rows of `width` RGB pixels, as the JPEG that
    /// `VipsImage.encoded(as: .jpeg(quality:chroma:))` writes for them, byte for byte.
    public static func encodedRGB(_ samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                  quality: Int, chroma: VipsEncoder.JPEGChroma) throws(VipsError) -> Data {
        precondition(samples.count == width * height * 3, "the buffer holds the image exactly")
        var (bytes, length): (UnsafeMutablePointer<UInt8>?, UInt) = (nil, 0)
        try call("jpeg encode") { message in
            cvips_jpeg_encode_rgb(samples.baseAddress, Int32(width), Int32(height), Int32(quality),
                                  chroma == .halved ? 1 : 0, &bytes, &length, message)
        }
        return Data(bytesNoCopy: bytes!, count: Int(length), deallocator: .free)
    }

    /// Runs a codec call that gives its failure's reason in a message buffer of libjpeg's size.
    private static func call(_ operation: String, _ body: (UnsafeMutablePointer<CChar>) -> Int32) throws(VipsError) {
        var message = [CChar](repeating: 0, count: 200)  // libjpeg's JMSG_LENGTH_MAX
        let result = message.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        if result != 0 {
            throw VipsError(operation: operation, message: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
    }
}
