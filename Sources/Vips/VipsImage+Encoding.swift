import CVips
import CVipsShim
import Foundation
import Synchronization

/// An encoder and its settings, as cardbake writes output images.
public enum VipsEncoder: Sendable, Hashable {
    /// `compression` 0...9 on zlib's scale, and the row filter; written by cardbake's own
    /// writer on libdeflate (`PNGWriter`), not by libvips.
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

    /// PNG row filters: one for every row, or the adaptive choice of one per row (libpng's heuristic).
    public enum PNGFilter: Sendable, Hashable {
        case none, sub, up, average, paeth, adaptive

        /// The filter of every row; nil when each row gets its own.
        var fixed: PNGRowFilter? {
            switch self {
            case .none: PNGRowFilter.none
            case .sub: .sub
            case .up: .up
            case .average: .average
            case .paeth: .paeth
            case .adaptive: nil
            }
        }
    }
}

extension VipsImage {
    /// Computes the image and encodes it with no metadata: no EXIF, XMP, ICC profile, resolution
    /// or colour tag, only the pixels and what decoding them needs (decoders take untagged pixels as sRGB).
    /// PNG takes the samples as 8 bits, and 1 to 4 bands.
    public func encoded(as encoder: VipsEncoder) throws(VipsError) -> Data {
        switch encoder {
        case let .png(compression, filter):
            return try PNGWriter(compression: compression, filter: filter).write(self)
        case let .jpeg(quality, chroma):
            return try saved(as: "JPEG") { cvips_jpegsave(pointer, $0, $1, Int32(quality), chroma == .halved ? 1 : 0) }
        case let .webp(quality):
            return try saved(as: "WebP", keeping: WebPChunks.keepPixelsOnly) { cvips_webpsave(pointer, $0, $1, Int32(quality)) }
        case let .heif(quality, compression):
            return try saved(as: "HEIF") { cvips_heifsave(pointer, $0, $1, Int32(quality), compression == .av1 ? 1 : 0) }
        }
    }

    /// The file a libvips saver writes with `save`, less what `keep` removes from it in place, moving
    /// what is kept to the front and returning its length (nil when the file is not a whole `format`):
    /// an encoded bitmap is never copied. By default all is kept (JPEG and HEIF with `strip` have
    /// nothing left to remove).
    private func saved(as format: String,
                       keeping keep: (UnsafeMutableRawBufferPointer) -> Int? = { $0.count },
                       by save: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32)
        throws(VipsError) -> Data {
        var length = 0
        let buffer = try VipsCall.step { () throws(VipsError) -> UnsafeMutableRawPointer in
            var buffer: UnsafeMutableRawPointer?
            guard save(&buffer, &length) == 0, let buffer else {
                g_free(buffer)
                throw VipsCall.failure(of: "save")
            }
            return buffer
        }
        guard let kept = keep(UnsafeMutableRawBufferPointer(start: buffer, count: length)) else {
            g_free(buffer)
            throw VipsError(operation: "save", message: "libvips wrote \(length) bytes that are not a whole \(format)")
        }
        return Data(bytesNoCopy: buffer, count: kept, deallocator: .custom { pointer, _ in g_free(pointer) })
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
        case .png: .png(compression: 2, filter: .adaptive)
        case .jpeg: .jpeg(quality: 50)
        case .webp: .webp(quality: 50)
        case let .heif(_, compression): .heif(quality: 50, compression: compression)
        }
    }

    private static let probes = Mutex<[VipsEncoder: String?]>([:])
}
