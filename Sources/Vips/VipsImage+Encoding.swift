import CVips
import CVipsShim
import Foundation

/// An encoder and its settings, as cardbake writes output images.
public enum VipsEncoder: Sendable, Hashable {
    /// zlib `compression` 0...9 and a VipsForeignPngFilter bit set.
    case png(compression: Int, filter: Int)
    /// Quality 1...100, optimised Huffman tables.
    case jpeg(quality: Int)
    /// Lossy WebP at quality 1...100.
    case webp(quality: Int)

    /// libvips' adaptive choice of row filters.
    public static let pngAllFilters = Int(VIPS_FOREIGN_PNG_FILTER_ALL.rawValue)
}

extension VipsImage {
    /// Computes the image and encodes it; metadata is stripped.
    public func encoded(as encoder: VipsEncoder) throws(VipsError) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch encoder {
        case let .png(compression, filter):
            status = cvips_pngsave(pointer, &buffer, &length, Int32(compression), Int32(filter))
        case let .jpeg(quality):
            status = cvips_jpegsave(pointer, &buffer, &length, Int32(quality))
        case let .webp(quality):
            status = cvips_webpsave(pointer, &buffer, &length, Int32(quality))
        }
        guard status == 0, let buffer else {
            throw VipsError.fromBuffer(operation: "save")
        }
        return Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in g_free(pointer) })
    }
}
