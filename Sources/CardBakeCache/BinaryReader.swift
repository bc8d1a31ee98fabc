/// Reads big-endian integers and byte runs from a buffer, answering nil past the end: the reading
/// half of the cache's binary files (their writing half is `Array.appendBigEndian`).
package struct BinaryReader {
    package let bytes: UnsafeRawBufferPointer
    package var offset: Int

    package init(bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    package var remaining: Int {
        bytes.count - offset
    }

    package mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    package mutating func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        bytes(MemoryLayout<Integer>.size).map { Integer(bigEndian: $0.loadUnaligned(as: Integer.self)) }
    }
}
