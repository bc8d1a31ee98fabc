import Foundation

/// A PNG reduced to the chunks that decoding its pixels needs.
///
/// libvips 8.14 writes a `pHYs` chunk from the image's resolution even with `strip`, and would
/// write any text or profile chunk it is given; this keeps only the critical chunks (`IHDR`,
/// `PLTE`, `IDAT`, `IEND`) and `tRNS`, so no resolution, colour tag, EXIF, XMP or ICC is left.
enum PNGChunks {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with every other chunk removed; nil when it is not a whole PNG.
    static func pixelsOnly(_ png: Data) -> Data? {
        let bytes = [UInt8](png)
        guard bytes.starts(with: signature) else { return nil }
        var kept = signature
        var offset = signature.count
        while offset + 12 <= bytes.count {
            let length = Int(bytes.bigEndianUInt32(at: offset))
            let end = offset + 12 + length
            guard end <= bytes.count else { return nil }
            let type = bytes[offset + 4..<offset + 8]
            // A chunk type whose first letter is upper case is critical: a decoder must understand it.
            if type.first.map(isUpperCaseLetter) == true || type.elementsEqual("tRNS".utf8) {
                kept += bytes[offset..<end]
            }
            if type.elementsEqual("IEND".utf8) { return Data(kept) }
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

    /// `webp` with every other chunk removed; nil when it is not a whole WebP.
    static func pixelsOnly(_ webp: Data) -> Data? {
        let bytes = [UInt8](webp)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8),
              Int(bytes.littleEndianUInt32(at: 4)) + 8 == bytes.count else { return nil }
        var header: [UInt8]?
        var chunks: [(type: String, bytes: ArraySlice<UInt8>)] = []
        var offset = 12
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return nil }
            let size = Int(bytes.littleEndianUInt32(at: offset + 4))
            let end = offset + 8 + size + size % 2
            guard end <= bytes.count else { return nil }
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if type == "VP8X", size >= 1 {
                var vp8x = Array(bytes[offset..<end])
                vp8x[8] &= keptVP8XFlags
                header = vp8x
            } else if bitstream.contains(type) {
                chunks.append((type, bytes[offset..<end]))
            }
            offset = end
        }
        var body = Array("WEBP".utf8)
        if let header, chunks.contains(where: { needingHeader.contains($0.type) }) {
            body += header
        }
        for chunk in chunks {
            body += chunk.bytes
        }
        return Data(Array("RIFF".utf8) + UInt32(body.count).littleEndianBytes + body)
    }
}

private extension [UInt8] {
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func littleEndianUInt32(at offset: Int) -> UInt32 {
        self[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}

private extension UInt32 {
    var littleEndianBytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: self >> (8 * $0)) } }
}
