import CVips
import CVipsShim
import Foundation
import Synchronization

/// An encoder and its settings, as cardbake writes output images.
public enum VipsEncoder: Sendable, Hashable {
    /// zlib `compression` 0...9 and the row filters to choose from.
    case png(compression: Int, filter: PNGFilter)
    /// Quality 1...100, baseline, optimised Huffman tables; every chroma sample kept unless `chroma` says
    /// otherwise (colour edges and text stay sharp).
    case jpeg(quality: Int, chroma: JPEGChroma = .full)
    /// Lossy WebP at quality 1...100.
    case webp(quality: Int)
    /// HEIF at quality 1...100, 8 bits per channel, compressed with HEVC (HEIC) or AV1 (AVIF).
    case heif(quality: Int, compression: HEIFCompression)

    /// The codec inside a HEIF container.
    public enum HEIFCompression: Sendable, Hashable {
        /// H.265 (libheif's x265 plugin): a `.heic` file.
        case hevc
        /// AV1 (libheif's aom plugin): a `.avif` file.
        case av1
    }

    /// How many chroma samples a JPEG keeps.
    public enum JPEGChroma: Sendable, Hashable {
        /// One per pixel (4:4:4).
        case full
        /// One per 2x2 pixels (4:2:0): smaller and faster to decode; colour edges blur.
        case halved
    }

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
            case let .jpeg(quality, chroma):
                cvips_jpegsave(pointer, &buffer, &length, Int32(quality), chroma == .halved ? 1 : 0)
            case let .webp(quality):
                cvips_webpsave(pointer, &buffer, &length, Int32(quality))
            case let .heif(quality, compression):
                cvips_heifsave(pointer, &buffer, &length, Int32(quality), compression == .av1 ? 1 : 0)
            }
            guard status == 0, let buffer else {
                g_free(buffer)
                throw VipsCall.failure(of: "save")
            }
            return buffer
        }
        let kept: Int
        do {
            kept = try encoder.keepPixelsOnly(in: UnsafeMutableRawBufferPointer(start: buffer, count: length))
        } catch {
            g_free(buffer)
            throw error
        }
        return Data(bytesNoCopy: buffer, count: kept, deallocator: .custom { pointer, _ in g_free(pointer) })
    }
}

extension VipsEncoder {
    /// Removes from the file libvips saved in `bytes` what its savers write even with `strip`
    /// (JPEG and HEIF with `strip` have nothing left), moving what is kept to the front, in place:
    /// an encoded bitmap is never copied. Returns the length kept.
    func keepPixelsOnly(in bytes: UnsafeMutableRawBufferPointer) throws(VipsError) -> Int {
        let (kept, format): (Int?, String) = switch self {
        case .png: (PNGChunks.keepPixelsOnly(in: bytes), "PNG")
        case .jpeg: (bytes.count, "JPEG")
        case .webp: (WebPChunks.keepPixelsOnly(in: bytes), "WebP")
        case .heif: (bytes.count, "HEIF")
        }
        guard let kept else {
            throw VipsError(operation: "save", message: "libvips wrote \(bytes.count) bytes that are not a whole \(format)")
        }
        return kept
    }
}

extension VipsEncoder {
    /// Whether writing this format depends on a codec libvips may have been built without, or that its
    /// libheif may lack a plugin for: HEIC needs libheif with x265, AVIF libheif with aom (or another
    /// AV1 encoder). PNG, JPEG and WebP are part of every libvips cardbake builds with.
    public var needsOptionalCodec: Bool {
        if case .heif = self { true } else { false }
    }

    /// Why libvips cannot write this format, found by encoding a small image; nil when it can.
    /// Starts libvips. Each format is tried once per process, whatever its settings.
    public func unavailability() -> String? {
        let probe = formatOnly
        return Self.probes.withLock { probes -> String? in
            if let known = probes[probe] { return known }
            let reason: String?
            do {
                try Vips.start()
                _ = try VipsImage.fromPixels([UInt8](repeating: 128, count: 16 * 16 * 3), width: 16, height: 16, bands: 3)
                    .encoded(as: probe)
                reason = nil
            } catch {
                reason = "\(error)"
            }
            probes[probe] = .some(reason)
            return reason
        }
    }

    /// This format at fixed settings: what a probe of the format encodes.
    private var formatOnly: VipsEncoder {
        switch self {
        case .png: .png(compression: 2, filter: .all)
        case .jpeg: .jpeg(quality: 50)
        case .webp: .webp(quality: 50)
        case let .heif(_, compression): .heif(quality: 50, compression: compression)
        }
    }

    private static let probes = Mutex<[VipsEncoder: String?]>([:])
}
