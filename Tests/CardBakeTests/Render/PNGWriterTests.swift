import Foundation
import Synchronization
import Testing
@testable import Vips

/// cardbake's PNG writer on libdeflate: lossless through libvips' decoder at every setting, the same
/// bytes for the same pixels, well-formed chunks, and libpng's adaptive choice of filter.
@Suite("PNG writer", .vips)
struct PNGWriterTests {
    static let filters: [VipsEncoder.PNGFilter] = [.none, .sub, .up, .average, .paeth, .adaptive]

    @Test("Each filter keeps every sample of images of odd sizes with 1 to 4 bands, at every level", arguments: filters)
    func roundTrip(filter: VipsEncoder.PNGFilter) throws {
        var generator = SeededGenerator(seed: 0x5EED)
        let sizes = [(1, 1), (1, 9), (7, 1), (2, 3), (13, 5), (33, 17), (130, 3)]
        for (index, (width, height)) in sizes.enumerated() {
            for bands in 1...4 {
                let picture = TestPicture.random(width: width, height: height, bands: bands, using: &generator)
                try expectRoundTrip(picture, .png(compression: (index + bands) % 10, filter: filter))
            }
        }
    }

    @Test("Fuzz: random sizes, bands, contents, filters and levels from a fixed seed, each decoded whole and well-formed")
    func fuzz() throws {
        var generator = SeededGenerator(seed: 0xF022_0052)
        for _ in 0..<300 {
            let picture = TestPicture.random(width: Int.random(in: 1...97, using: &generator),
                                             height: Int.random(in: 1...61, using: &generator),
                                             bands: Int.random(in: 1...4, using: &generator), using: &generator)
            let encoder = VipsEncoder.png(compression: Int.random(in: 0...9, using: &generator),
                                          filter: Self.filters.randomElement(using: &generator)!)
            let png = try expectRoundTrip(picture, encoder)
            try expectWellFormed(png, picture)
        }
    }

    @Test("The same pixels give the same bytes: encoded twice, from two images, on several threads at once", arguments: filters)
    func deterministic(filter: VipsEncoder.PNGFilter) throws {
        var generator = SeededGenerator(seed: 7)
        let picture = TestPicture.random(width: 301, height: 211, bands: 3, using: &generator)
        for compression in [0, 2, 6, 9] {
            let encoder = VipsEncoder.png(compression: compression, filter: filter)
            let first = try picture.image().encoded(as: encoder)
            let results = Mutex<[Data]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let png = Result { try picture.image().encoded(as: encoder) }
                results.withLock { $0.append((try? png.get()) ?? Data()) }
            }
            #expect(results.withLock { $0 }.allSatisfy { $0 == first }, "compression \(compression)")
        }
    }

    @Test("A 2×2 image decodes to its four pixels, and stored (level 0) its file is the bytes PNG and zlib define")
    func knownTinyImage() throws {
        let samples: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        let image = try VipsImage.fromPixels(samples, width: 2, height: 2, bands: 3)
        let decoded = try Bitmap(encoded: try image.encoded(as: .png(compression: 2, filter: .adaptive)))
        #expect(decoded.allPixels == [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]])

        // Signature; IHDR 2×2, 8 bits, RGB; IDAT: zlib header, one final stored block of the two
        // rows, each after its filter type (0), then the Adler-32; IEND.
        let stored = """
            89504e470d0a1a0a \
            0000000d 49484452 00000002 00000002 08 02 00 00 00 fdd49a73 \
            00000019 49444154 7801 01 0e00 f1ff 00 ff0000 00ff00 00 0000ff ffffff 1fee05fb deddec2b \
            00000000 49454e44 ae426082
            """
        #expect(try image.encoded(as: .png(compression: 0, filter: .none)) == Data(hex: stored))
    }

    @Test("The chunks are IHDR, one IDAT and IEND, each with its CRC; IHDR says the size and the colour type")
    func chunks() throws {
        var generator = SeededGenerator(seed: 11)
        for bands in 1...4 {
            let picture = TestPicture.random(width: 45, height: 23, bands: bands, using: &generator)
            try expectWellFormed(try picture.image().encoded(as: .png(compression: 2, filter: .adaptive)), picture)
        }
    }

    @Test("Adaptive filtering picks, per row, libpng's choice: the least sum of the filtered bytes' magnitudes as signed")
    func adaptiveChoice() throws {
        var generator = SeededGenerator(seed: 3)
        var typesSeen = Set<UInt8>()
        for bands in 1...4 {
            let picture = TestPicture.random(width: 57, height: 40, bands: bands, using: &generator, kind: .mixedRows)
            let expected = ReferenceFilter.adaptive(picture)
            let difference = firstDifference(picture.filtered(with: nil), expected)
            #expect(difference == nil, "\(bands) bands: \(difference ?? "")")
            typesSeen.formUnion(stride(from: 0, to: expected.count, by: picture.width * bands + 1).map { expected[$0] })
        }
        #expect(typesSeen == [0, 1, 2, 3, 4], "the pictures let every filter win a row")
    }

    @Test("Each fixed filter writes the bytes PNG's specification defines", arguments: PNGRowFilter.allCases)
    func fixedFilter(_ filter: PNGRowFilter) throws {
        var generator = SeededGenerator(seed: 5)
        for bands in 1...4 {
            let picture = TestPicture.random(width: 19, height: 6, bands: bands, using: &generator)
            let difference = firstDifference(picture.filtered(with: filter), ReferenceFilter.all(picture, filter.rawValue))
            #expect(difference == nil, "\(bands) bands: \(difference ?? "")")
        }
    }

    @Test("compression maps onto libdeflate's levels as docs/catalog.md says; 1 and 2 write the same bytes")
    func levels() throws {
        let levels = (0...9).map { PNGWriter(compression: $0, filter: .adaptive).deflateLevel }
        #expect(levels == [0, 1, 1, 3, 4, 5, 6, 7, 8, 12])
        var generator = SeededGenerator(seed: 9)
        let image = try TestPicture.random(width: 200, height: 120, bands: 3, using: &generator, kind: .ramps).image()
        let sizes = try (0...9).map { try image.encoded(as: .png(compression: $0, filter: .adaptive)) }
        #expect(sizes[1] == sizes[2])
        #expect(sizes[0].count > sizes[2].count && sizes[2].count >= sizes[9].count)
    }

    @Test("An image of 5 bands is refused, naming why")
    func fiveBands() throws {
        let image = try VipsImage.fromPixels([UInt8](repeating: 9, count: 4 * 3 * 5), width: 4, height: 3, bands: 5)
        #expect {
            try image.encoded(as: .png(compression: 2, filter: .adaptive))
        } throws: { error in
            (error as? VipsError)?.message.contains("1 to 4 bands, not 5") == true
        }
    }

    /// Encodes `picture` and decodes it with libvips, expecting the same samples; returns the file.
    @discardableResult
    private func expectRoundTrip(_ picture: TestPicture, _ encoder: VipsEncoder,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let png = try picture.image().encoded(as: encoder)
        let decoded = try Bitmap(encoded: png)
        #expect(decoded.width == picture.width && decoded.height == picture.height, sourceLocation: sourceLocation)
        let difference = firstDifference(decoded.samples, picture.asDecoded)
        #expect(difference == nil, "\(picture.width)×\(picture.height)×\(picture.bands) \(encoder): \(difference ?? "")",
                sourceLocation: sourceLocation)
        return png
    }

    /// Expects `png` to be `picture`'s IHDR, one IDAT holding a zlib stream, and IEND, each with its CRC.
    private func expectWellFormed(_ png: Data, _ picture: TestPicture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let chunks = try #require(ImageContainer.pngChunks(png), sourceLocation: sourceLocation)
        #expect(chunks.map(\.name) == ["IHDR", "IDAT", "IEND"], sourceLocation: sourceLocation)
        let bytes = [UInt8](png)
        var offset = 8
        for chunk in chunks {
            let stored = bytes[offset + 8 + chunk.payload.count..<offset + 12 + chunk.payload.count].reduce(0) { $0 << 8 | UInt32($1) }
            #expect(stored == crc32(Array(chunk.name.utf8) + chunk.payload), "\(chunk.name)", sourceLocation: sourceLocation)
            offset += 12 + chunk.payload.count
        }
        #expect(offset == bytes.count, "nothing after IEND", sourceLocation: sourceLocation)
        let colorType: [Int: UInt8] = [1: 0, 2: 4, 3: 2, 4: 6]
        let header = bigEndian(UInt32(picture.width)) + bigEndian(UInt32(picture.height)) + [8, colorType[picture.bands]!, 0, 0, 0]
        #expect(chunks.first?.payload == header, sourceLocation: sourceLocation)
        let zlib = chunks[1].payload
        #expect(zlib.first == 0x78 && (UInt16(zlib[0]) << 8 | UInt16(zlib[1])) % 31 == 0, "a zlib header", sourceLocation: sourceLocation)
    }

    /// Where `actual` first differs from `expected`, in words; nil when they are equal.
    private func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
        guard actual != expected else { return nil }
        guard let index = (0..<min(actual.count, expected.count)).first(where: { actual[$0] != expected[$0] }) else {
            return "\(actual.count) bytes, not \(expected.count)"
        }
        return "byte \(index) is \(actual[index]), not \(expected[index])"
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// CRC-32 as PNG's specification writes it out (annex D), bit by bit: not the writer's libdeflate.
    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// The samples of a test image.
struct TestPicture {
    let width: Int
    let height: Int
    let bands: Int
    let samples: [UInt8]

    /// What compresses differently: each filter wins on some.
    enum Kind: CaseIterable {
        case noise, ramps, blocks, mixedRows
    }

    static func random(width: Int, height: Int, bands: Int, using generator: inout SeededGenerator,
                       kind: Kind? = nil) -> TestPicture {
        let kind = kind ?? Kind.allCases.randomElement(using: &generator)!
        let slopes = (0..<3).map { _ in Int.random(in: -9...9, using: &generator) }
        let block = Int.random(in: 1...8, using: &generator)
        let palette = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * bands)
        for y in 0..<height {
            // Rows of mixedRows take turns: noise, ramps, flat blocks.
            let rowKind = kind == .mixedRows ? [Kind.noise, .ramps, .blocks][y % 3] : kind
            for x in 0..<width {
                for band in 0..<bands {
                    let sample: UInt8 = switch rowKind {
                    case .noise: UInt8.random(in: 0...255, using: &generator)
                    case .ramps: UInt8(truncatingIfNeeded: 128 + x * slopes[0] + y * slopes[1] + band * slopes[2] * 20)
                    case .blocks, .mixedRows: palette[(x / block + y / block * 3 + band) % palette.count]
                    }
                    samples.append(sample)
                }
            }
        }
        return TestPicture(width: width, height: height, bands: bands, samples: samples)
    }

    func image() throws -> VipsImage {
        try VipsImage.fromPixels(samples, width: width, height: height, bands: bands)
    }

    /// The writer's filtered rows: every row with `filter`, or the adaptive choice when nil.
    func filtered(with filter: PNGRowFilter?) -> [UInt8] {
        PNGScanlines(filtering: samples, rowBytes: width * bands, bytesPerPixel: bands, with: filter).withBytes { Array($0) }
    }

    /// The samples as ``VipsImage/decode(_:maxWidth:)`` gives them: gray made RGB, alpha kept.
    var asDecoded: [UInt8] {
        guard bands <= 2 else { return samples }
        var decoded: [UInt8] = []
        for start in stride(from: 0, to: samples.count, by: bands) {
            decoded += [samples[start], samples[start], samples[start]]
            decoded += samples[start + 1..<start + bands]
        }
        return decoded
    }
}

/// PNG's filters as its specification states them (section 9), one byte at a time, and libpng's
/// adaptive heuristic: what the writer's faster code must agree with.
enum ReferenceFilter {
    /// Every row with filter `type`, each after its type byte.
    static func all(_ picture: TestPicture, _ type: UInt8) -> [UInt8] {
        rows(picture).flatMap { row, above in [type] + filtered(row, above, type, picture.bands) }
    }

    static func adaptive(_ picture: TestPicture) -> [UInt8] {
        rows(picture).flatMap { row, above in
            let candidates = (UInt8(0)...4).map { filtered(row, above, $0, picture.bands) }
            let costs = candidates.map { $0.reduce(0) { $0 + Int(Int8(bitPattern: $1).magnitude) } }
            let best = costs.firstIndex(of: costs.min()!)!
            return [UInt8(best)] + candidates[best]
        }
    }

    private static func rows(_ picture: TestPicture) -> [(row: [UInt8], above: [UInt8])] {
        let length = picture.width * picture.bands
        return (0..<picture.height).map { y in
            (Array(picture.samples[y * length..<(y + 1) * length]),
             y == 0 ? [UInt8](repeating: 0, count: length) : Array(picture.samples[(y - 1) * length..<y * length]))
        }
    }

    private static func filtered(_ row: [UInt8], _ above: [UInt8], _ type: UInt8, _ bpp: Int) -> [UInt8] {
        row.indices.map { i in
            let x = Int(row[i]), b = Int(above[i])
            let a = i >= bpp ? Int(row[i - bpp]) : 0, c = i >= bpp ? Int(above[i - bpp]) : 0
            let prediction = switch type {
            case 0: 0
            case 1: a
            case 2: b
            case 3: (a + b) / 2
            default: paeth(a, b, c)
            }
            return UInt8(truncatingIfNeeded: x - prediction)
        }
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}

private extension Data {
    /// Bytes from hexadecimal digits; spaces ignored.
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }.map { UInt8(String($0), radix: 16)! }
        self.init(stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] })
    }
}
