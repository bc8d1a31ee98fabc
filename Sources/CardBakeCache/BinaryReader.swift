import CardBakeFiles
import Foundation

/// Reads big-endian integers and byte runs from a buffer, answering nil past the end: the reading
/// half of the cache's binary files (their writing half is `Array.appendBigEndian`).
package struct BinaryReader {
    package let bytes: UnsafeRawBufferPointer
    package var offset: Int

    @inlinable
    package init(bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    @inlinable
    package var remaining: Int {
        bytes.count - offset
    }

    @inlinable
    package mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    @inlinable
    package mutating func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        bytes(MemoryLayout<Integer>.size).map { Integer(bigEndian: $0.loadUnaligned(as: Integer.self)) }
    }
}

extension BinaryReader {
    /// Reads `data` with `body` when it starts with `tag`; nil when it does not, when `body` answers
    /// nil, or when bytes are left over.
    @inlinable
    package static func decode<Value>(_ data: Data, tag: [UInt8], _ body: (inout BinaryReader) -> Value?) -> Value? {
        data.withUnsafeBytes { buffer in
            var reader = BinaryReader(bytes: buffer, offset: 0)
            guard reader.bytes(tag.count).map({ $0.elementsEqual(tag) }) == true,
                  let value = body(&reader), reader.remaining == 0 else { return nil }
            return value
        }
    }
}

extension BinaryReader {
    /// UTF-8 text after its big-endian UInt32 length (``Swift/Array/appendText(_:)``).
    package mutating func text() -> String? {
        guard let count = integer(UInt32.self), let bytes = bytes(Int(count)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A file's status as ``Swift/Array/appendFileStatus(_:)`` wrote it.
    package mutating func fileStatus() -> FileStatus? {
        guard let size = integer(Int64.self), let modificationTime = integer(Int64.self),
              let inode = integer(UInt64.self), let changeTime = integer(Int64.self) else { return nil }
        return FileStatus(size: size, modificationTime: modificationTime, inode: inode, changeTime: changeTime)
    }

    /// A big-endian UInt32 count, then that many elements `element` reads; nil when one does not read.
    /// The reservation is bounded by the bytes left, so a damaged count reserves nothing huge.
    package mutating func list<Element>(_ element: (inout BinaryReader) -> Element?) -> [Element]? {
        guard let count = integer(UInt32.self) else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(Swift.min(Int(count), remaining))
        for _ in 0..<count {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        }
        return elements
    }
}
