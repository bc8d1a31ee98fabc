import Foundation

/// The parts of an encoded PNG, WebP or JPEG file, walked from its bytes, to assert what metadata
/// it carries. Each walk returns nil when the bytes are not a whole file of its format.
enum ImageContainer {
    /// One PNG chunk, RIFF chunk or JPEG marker segment.
    struct Part: Equatable {
        /// The chunk type (`IHDR`, `VP8 `) or, for JPEG, the marker as `FFE1`.
        var name: String
        var payload: [UInt8]
    }

    /// Every chunk of a PNG, through `IEND`.
    static func pngChunks(_ data: Data) -> [Part]? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        var parts: [Part] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
            guard offset + 12 + length <= bytes.count else { return nil }
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            parts.append(Part(name: name, payload: Array(bytes[offset + 8..<offset + 8 + length])))
            if name == "IEND" { return parts }
            offset += 12 + length
        }
        return nil
    }

    /// Every chunk inside a WebP's RIFF container.
    static func webpChunks(_ data: Data) -> [Part]? {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8),
              littleEndian(bytes, at: 4) + 8 == bytes.count else { return nil }
        var parts: [Part] = []
        var offset = 12
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return nil }
            let size = littleEndian(bytes, at: offset + 4)
            guard offset + 8 + size <= bytes.count else { return nil }
            parts.append(Part(name: String(decoding: bytes[offset..<offset + 4], as: UTF8.self),
                              payload: Array(bytes[offset + 8..<offset + 8 + size])))
            offset += 8 + size + size % 2
        }
        return parts
    }

    /// The marker segments of a JPEG from its start to the first start-of-scan (`FFDA`), which
    /// the metadata segments all precede.
    static func jpegSegments(_ data: Data) -> [Part]? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var parts: [Part] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            parts.append(Part(name: String(format: "FF%02X", marker), payload: Array(bytes[offset + 4..<offset + 2 + length])))
            if marker == 0xDA { return parts }
            offset += 2 + length
        }
        return nil
    }

    /// The payload of a HEIF file's top-level `meta` box (after its version and flags), which
    /// describes every item and property; nil when `data` does not start with an `ftyp` box.
    static func heifMeta(_ data: Data) -> [UInt8]? {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= bytes.count else { return nil }
            if bytes[offset + 4..<offset + 8].elementsEqual("meta".utf8) { return Array(bytes[offset + 12..<offset + size]) }
            offset += size
        }
        return nil
    }

    /// What metadata `data` carries, one line per part: EXIF, XMP, an ICC profile, or (PNG) a
    /// physical resolution. Empty when there is none; nil when `data` is not a whole PNG, WebP, JPEG or HEIF.
    static func metadata(in data: Data) -> [String]? {
        if let meta = heifMeta(data) {
            // Item types of EXIF and XMP items, colour box types of ICC profiles, and an alpha plane's auxiliary type.
            return ["Exif", "mime", "prof", "rICC", "auxC"].filter { type in
                meta.indices.dropLast(3).contains { meta[$0..<$0 + 4].elementsEqual(type.utf8) }
            }.map { "HEIF \($0)" }
        }
        if let chunks = pngChunks(data) {
            return chunks.filter { chunk in
                ["pHYs", "eXIf", "iCCP"].contains(chunk.name)
                    || (["tEXt", "zTXt", "iTXt"].contains(chunk.name) && isMetadataKeyword(chunk.payload))
            }.map { "PNG \($0.name) chunk" }
        }
        if let chunks = webpChunks(data) {
            return chunks.filter { ["EXIF", "XMP ", "ICCP"].contains($0.name) }.map { "WebP \($0.name) chunk" }
        }
        if let segments = jpegSegments(data) {
            return segments.filter { segment in
                (segment.name == "FFE1" && (segment.payload.starts(with: Array("Exif\0\0".utf8))
                                            || segment.payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8))))
                    || (segment.name == "FFE2" && segment.payload.starts(with: Array("ICC_PROFILE\0".utf8)))
            }.map { "JPEG \($0.name) \(String(decoding: $0.payload.prefix(4), as: UTF8.self)) segment" }
        }
        return nil
    }

    /// Whether a PNG text chunk's keyword is XMP's or a raw EXIF/XMP/ICC profile's.
    private static func isMetadataKeyword(_ payload: [UInt8]) -> Bool {
        let keyword = String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
        return keyword == "XML:com.adobe.xmp" || keyword.hasPrefix("Raw profile type")
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
