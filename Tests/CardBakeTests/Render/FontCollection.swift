import Foundation

/// A TrueType collection made of font files, for tests of a `fontFile` that holds several faces.
enum FontCollection {
    /// The `.ttc` bytes holding `fonts` (each a TrueType file) as its faces, in order, with every
    /// occurrence of `family` in their `name` tables replaced by `newFamily` (as long), so that the
    /// collection is a family no installed font shares.
    static func bytes(of fonts: [Data], renaming family: String, to newFamily: String) -> Data {
        precondition(family.utf8.count == newFamily.utf8.count)
        let headerSize = 12 + 4 * fonts.count
        var offsets: [Int] = []
        var end = headerSize
        for font in fonts {
            offsets.append(end)
            end += (font.count + 3) / 4 * 4
        }
        var collection = Data()
        collection.append(contentsOf: Array("ttcf".utf8))
        appendUInt32(0x0001_0000, to: &collection)
        appendUInt32(UInt32(fonts.count), to: &collection)
        offsets.forEach { appendUInt32(UInt32($0), to: &collection) }
        for (font, base) in zip(fonts, offsets) {
            var face = [UInt8](font)
            let tables = Int(uInt16(face, at: 4))
            for record in (0..<tables).map({ 12 + 16 * $0 }) {
                let offset = Int(uInt32(face, at: record + 8)), length = Int(uInt32(face, at: record + 12))
                if String(decoding: face[record..<record + 4], as: UTF8.self) == "name" {
                    rename(&face, in: offset..<offset + length, family, to: newFamily)
                }
                // Table offsets in a collection count from the start of the file.
                let moved = UInt32(offset + base)
                face.replaceSubrange(record + 8..<record + 12, with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: moved >> $0) })
            }
            collection.append(contentsOf: face)
            collection.append(contentsOf: [UInt8](repeating: 0, count: (4 - face.count % 4) % 4))
        }
        return collection
    }

    /// Replaces `family` by `newFamily` within `range`, as ASCII and as UTF-16BE (the two encodings of names).
    private static func rename(_ bytes: inout [UInt8], in range: Range<Int>, _ family: String, to newFamily: String) {
        let encodings: [(String) -> [UInt8]] = [{ Array($0.utf8) }, { $0.utf8.flatMap { [0, $0] } }]
        for encode in encodings {
            let (old, new) = (encode(family), encode(newFamily))
            var index = range.lowerBound
            while index + old.count <= range.upperBound {
                if bytes[index..<index + old.count].elementsEqual(old) {
                    bytes.replaceSubrange(index..<index + old.count, with: new)
                    index += old.count
                } else {
                    index += 1
                }
            }
        }
    }

    private static func uInt16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    private static func uInt32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[index + $1]) }
    }

    private static func appendUInt32(_ value: UInt32, to data: inout Data) {
        data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
