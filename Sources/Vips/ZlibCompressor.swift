import CLibdeflate

/// libdeflate's compressor at one level: a whole buffer at a time into a zlib stream.
struct ZlibCompressor: ~Copyable {
    /// libdeflate's levels: 0 stores, 1 is the fastest, 12 the smallest.
    static let levels = 0...12

    private let compressor: OpaquePointer

    /// nil when libdeflate cannot allocate the compressor's memory.
    init?(level: Int) {
        precondition(Self.levels.contains(level), "libdeflate has no level \(level)")
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { return nil }
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// The most bytes ``compress(_:into:)`` writes for `count` bytes of input.
    func bound(for count: Int) -> Int {
        libdeflate_zlib_compress_bound(compressor, count)
    }

    /// Compresses `input` into `output` and returns the length written, or nil when it did not fit.
    func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        let length = libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
        return length > 0 ? length : nil
    }
}

/// The CRC-32 of `bytes` (ISO 3309, as zlib and PNG compute it), continuing from `crc` (0 to start).
func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    libdeflate_crc32(crc, bytes.baseAddress, bytes.count)
}
