extension Array<UInt8> {
    /// Appends the integer's bytes, most significant first.
    @inlinable
    package mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
