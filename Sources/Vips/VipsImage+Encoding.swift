import CVips
import CVipsShim
import Foundation

/// An encoder and its settings, as cardbake writes output images.
public enum VipsEncoder: Sendable, Hashable {
    /// zlib `compression` 0...9 and the row filters to choose from.
    case png(compression: Int, filter: PNGFilter)
    /// Quality 1...100, optimised Huffman tables.
    case jpeg(quality: Int)
    /// Lossy WebP at quality 1...100.
    case webp(quality: Int)

    /// PNG row filters: one, or libvips' adaptive choice among all of them per row.
    public enum PNGFilter: Sendable, Hashable {
        case none, sub, up, average, paeth, all

        var flags: VipsForeignPngFilter {
            switch self {
            case .none: VIPS_FOREIGN_PNG_FILTER_NONE
            case .sub: VIPS_FOREIGN_PNG_FILTER_SUB
            case .up: VIPS_FOREIGN_PNG_FILTER_UP
            case .average: VIPS_FOREIGN_PNG_FILTER_AVG
            case .paeth: VIPS_FOREIGN_PNG_FILTER_PAETH
            case .all: VIPS_FOREIGN_PNG_FILTER_ALL
            }
        }
    }
}

extension VipsImage {
    /// Computes the image and encodes it with no metadata: no EXIF, XMP, ICC profile, resolution
    /// or colour tag, only the pixels and what decoding them needs (decoders take untagged pixels as sRGB).
    public func encoded(as encoder: VipsEncoder) throws(VipsError) -> Data {
        var length = 0
        let buffer = try VipsCall.step { () throws(VipsError) -> UnsafeMutableRawPointer in
            var buffer: UnsafeMutableRawPointer?
            let status = switch encoder {
            case let .png(compression, filter):
                cvips_pngsave(pointer, &buffer, &length, Int32(compression), Int32(filter.flags.rawValue))
            case let .jpeg(quality):
                cvips_jpegsave(pointer, &buffer, &length, Int32(quality))
            case let .webp(quality):
                cvips_webpsave(pointer, &buffer, &length, Int32(quality))
            }
            guard status == 0, let buffer else {
                g_free(buffer)
                throw VipsCall.failure(of: "save")
            }
            return buffer
        }
        let saved = Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in g_free(pointer) })
        return try encoder.withoutMetadata(saved)
    }
}

extension VipsEncoder {
    /// `saved` without what libvips' savers write even with `strip` (JPEG with `strip` has nothing left).
    func withoutMetadata(_ saved: Data) throws(VipsError) -> Data {
        let (kept, format): (Data?, String) = switch self {
        case .png: (PNGChunks.pixelsOnly(saved), "PNG")
        case .jpeg: (saved, "JPEG")
        case .webp: (WebPChunks.pixelsOnly(saved), "WebP")
        }
        guard let kept else {
            throw VipsError(operation: "save", message: "libvips wrote \(saved.count) bytes that are not a whole \(format)")
        }
        return kept
    }
}
