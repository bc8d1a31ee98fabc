import Foundation

/// Writes 8-bit PNG files compressed with libdeflate: the signature, `IHDR`, one `IDAT` and `IEND`,
/// and no other chunk, so no metadata. The same samples and settings always give the same bytes.
/// No packaged PNG writer compresses with libdeflate (libpng and libspng call zlib), hence this small one.
struct PNGWriter {
    /// On zlib's scale, 0...9: see ``deflateLevel``.
    let compression: Int
    let filter: VipsEncoder.PNGFilter

    /// The libdeflate level for ``compression``: the same number, except that 2 takes libdeflate's 1
    /// (the fastest, already smaller than zlib's 1, 2 and 3) and 9 its 12 (the smallest). Each
    /// level's files are thus no larger than zlib's at that level, within half a percent
    /// (docs/catalog.md, `compression`).
    var deflateLevel: Int {
        switch compression {
        case 2: 1
        case 9: 12
        default: compression
        }
    }

    /// The PNG of `image`'s samples as 8 bits: 1 band is gray, 2 gray and alpha, 3 RGB, 4 RGBA.
    /// Throws for another number of bands, or pixels that compress to more than a PNG chunk's 2 GiB.
    func write(_ image: VipsImage) throws(VipsError) -> Data {
        let (width, height, bands) = (image.width, image.height, image.bands)
        guard let colorType = Self.colorTypes[bands] else {
            throw Self.failure("a PNG holds 1 to 4 bands, not \(bands)")
        }
        guard let compressor = ZlibCompressor(level: deflateLevel) else { throw Self.failure("out of memory") }
        // The samples are let go once filtered, before the file takes memory of its own.
        let scanlines = PNGScanlines(filtering: try image.pixels(as: UInt8.self), rowBytes: width * bands,
                                     bytesPerPixel: bands, with: filter.fixed)
        var file = try PNGFileBuffer(capacity: Self.framing + compressor.bound(for: scanlines.count))
        file.append(Self.signature)
        try file.appendChunk("IHDR") { body in
            body.storeBytes(of: UInt32(width).bigEndian, toByteOffset: 0, as: UInt32.self)
            body.storeBytes(of: UInt32(height).bigEndian, toByteOffset: 4, as: UInt32.self)
            // Bit depth 8, then the colour type; compression, filter method and interlacing all 0.
            UnsafeMutableRawBufferPointer(rebasing: body[8..<13]).copyBytes(from: [8, colorType, 0, 0, 0])
            return 13
        }
        try file.appendChunk("IDAT") { body in
            scanlines.withBytes { compressor.compress($0, into: body) }
        }
        try file.appendChunk("IEND") { _ in 0 }
        return file.data()
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// IHDR's colour type for each number of bands.
    private static let colorTypes: [Int: UInt8] = [1: 0, 2: 4, 3: 2, 4: 6]
    /// The bytes of a file besides the compressed pixels: the signature, three chunks' length, type
    /// and CRC, and IHDR's body.
    private static let framing = signature.count + 3 * 12 + 13

    static func failure(_ message: String) -> VipsError {
        VipsError(operation: "pngsave", message: message)
    }
}

/// A PNG file written into memory sized beforehand.
private struct PNGFileBuffer: ~Copyable {
    private let memory: UnsafeMutableRawBufferPointer
    private var count = 0

    init(capacity: Int) throws(VipsError) {
        guard let base = malloc(capacity) else { throw PNGWriter.failure("out of memory") }
        memory = UnsafeMutableRawBufferPointer(start: base, count: capacity)
    }

    deinit { free(memory.baseAddress) }

    mutating func append(_ bytes: [UInt8]) {
        UnsafeMutableRawBufferPointer(rebasing: memory[count..<count + bytes.count]).copyBytes(from: bytes)
        count += bytes.count
    }

    /// Appends a chunk of `type` whose body `write` writes at the start of the room left, returning
    /// the body's length, or nil when it did not fit.
    mutating func appendChunk(_ type: String, body write: (UnsafeMutableRawBufferPointer) -> Int?) throws(VipsError) {
        let start = count
        count += 4
        append(Array(type.utf8))
        // Room for the body, keeping the CRC's 4 bytes.
        guard let length = write(UnsafeMutableRawBufferPointer(rebasing: memory[count..<memory.count - 4])) else {
            throw PNGWriter.failure("\(type) did not fit")
        }
        guard length <= Int32.max else { throw PNGWriter.failure("\(type) exceeds a PNG chunk's 2 GiB") }
        memory.storeBytes(of: UInt32(length).bigEndian, toByteOffset: start, as: UInt32.self)
        count += length
        let crc = crc32(UnsafeRawBufferPointer(rebasing: memory[start + 4..<count]))
        memory.storeBytes(of: crc.bigEndian, toByteOffset: count, as: UInt32.self)
        count += 4
    }

    /// The file, in memory shrunk to its length: no copy.
    consuming func data() -> Data {
        let base = memory.baseAddress!
        let count = count
        discard self
        return Data(bytesNoCopy: realloc(base, count) ?? base, count: count, deallocator: .free)
    }
}
