import CardBakeFiles

extension Array<UInt8> {
    /// Appends the integer's bytes, most significant first.
    @inlinable
    package mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

extension Array<UInt8> {
    /// Appends the length of `text`'s UTF-8 as a big-endian UInt32, then the UTF-8: what
    /// ``BinaryReader/text()`` reads.
    package mutating func appendText(_ text: String) {
        appendBigEndian(UInt32(text.utf8.count))
        append(contentsOf: text.utf8)
    }

    /// Appends a file's size, modification time, inode and change time, each big-endian: what
    /// ``BinaryReader/fileStatus()`` reads.
    package mutating func appendFileStatus(_ status: FileStatus) {
        appendBigEndian(status.size)
        appendBigEndian(status.modificationTime)
        appendBigEndian(status.inode)
        appendBigEndian(status.changeTime)
    }
}
