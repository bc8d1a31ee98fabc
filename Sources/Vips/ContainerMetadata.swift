import Foundation

/// A WebP reduced to the chunks that hold its pixels.
///
/// libvips 8.14 writes an `EXIF` chunk (orientation, resolution, size) even with `strip`, and
/// would write `ICCP` and `XMP ` chunks from the image's metadata; this keeps the bitstream
/// chunks (`VP8 `, `VP8L`, `ALPH`, `ANIM`, `ANMF`) and, only when alpha or animation chunks
/// need it, the `VP8X` header with its profile, EXIF and XMP flags cleared.
enum WebPChunks {
    private static let bitstream: Set<String> = ["VP8 ", "VP8L", "ALPH", "ANIM", "ANMF"]
    private static let needingHeader: Set<String> = ["ALPH", "ANIM", "ANMF"]
    /// The alpha and animation bits of the `VP8X` flags byte.
    private static let keptVP8XFlags: UInt8 = 0x10 | 0x02

    /// Moves the chunks of the WebP in `bytes` that are kept to its front, in order, with the
    /// RIFF size and any header's flags set to match, and returns their length; nil when it is
    /// not a whole WebP. No copy of the file is made.
    static func keepPixelsOnly(in bytes: UnsafeMutableRawBufferPointer) -> Int? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8),
              Int(bytes.littleEndianUInt32(at: 4)) + 8 == bytes.count else { return nil }
        var chunks: [(type: String, range: Range<Int>)] = []
        var offset = 12
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return nil }
            let size = Int(bytes.littleEndianUInt32(at: offset + 4))
            let end = offset + 8 + size + size % 2
            guard end <= bytes.count else { return nil }
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if (type == "VP8X" && size >= 1) || bitstream.contains(type) {
                chunks.append((type, offset..<end))
            }
            offset = end
        }
        let needsHeader = chunks.contains { needingHeader.contains($0.type) }
        var kept = 12
        for chunk in chunks where chunk.type != "VP8X" || needsHeader {
            bytes.move(chunk.range, to: kept)
            if chunk.type == "VP8X" {
                bytes[kept + 8] &= keptVP8XFlags
            }
            kept += chunk.range.count
        }
        withUnsafeBytes(of: UInt32(kept - 8).littleEndian) { size in
            bytes.baseAddress!.advanced(by: 4).copyMemory(from: size.baseAddress!, byteCount: 4)
        }
        return kept
    }
}

private extension UnsafeMutableRawBufferPointer {
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Moves the bytes of `range` to start at `destination`, at or before the range's start.
    func move(_ range: Range<Int>, to destination: Int) {
        guard destination != range.lowerBound, let base = baseAddress else { return }
        memmove(base + destination, base + range.lowerBound, range.count)
    }
}
