import Foundation

/// A PNG reduced to the chunks that decoding its pixels needs.
///
/// libvips 8.14 writes a `pHYs` chunk from the image's resolution even with `strip`, and would
/// write any text or profile chunk it is given; this keeps only the critical chunks (`IHDR`,
/// `PLTE`, `IDAT`, `IEND`) and `tRNS`, so no resolution, colour tag, EXIF, XMP or ICC is left.
enum PNGChunks {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Moves the chunks of the PNG in `bytes` that are kept to its front, in order, and returns
    /// their length; nil when it is not a whole PNG. No copy of the file is made.
    static func keepPixelsOnly(in bytes: UnsafeMutableRawBufferPointer) -> Int? {
        guard bytes.starts(with: signature) else { return nil }
        var kept = signature.count
        var offset = signature.count
        while offset + 12 <= bytes.count {
            let length = Int(bytes.bigEndianUInt32(at: offset))
            let end = offset + 12 + length
            guard end <= bytes.count else { return nil }
            let type = bytes[offset + 4..<offset + 8]
            let last = type.elementsEqual("IEND".utf8)
            // A chunk type whose first letter is upper case is critical: a decoder must understand it.
            if type.first.map(isUpperCaseLetter) == true || type.elementsEqual("tRNS".utf8) {
                bytes.move(offset..<end, to: kept)
                kept += end - offset
            }
            if last { return kept }
            offset = end
        }
        return nil
    }

    private static func isUpperCaseLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
}

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
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func littleEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Moves the bytes of `range` to start at `destination`, at or before the range's start.
    func move(_ range: Range<Int>, to destination: Int) {
        guard destination != range.lowerBound, let base = baseAddress else { return }
        memmove(base + destination, base + range.lowerBound, range.count)
    }
}
