import Foundation

/// A SHA-256 digest: the identity of a file's bytes in the manifest, of a blob in the content-addressed
/// store, and the form of every cache key. (Computing one is the cache module's job; this is the value.)
///
/// Its text form, used by `description` and by `Codable`, is 64 lowercase hexadecimal digits.
/// Digests order as their bytes (and so as their text) do.
public struct ContentDigest: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    // The 32 bytes as four big-endian words, so that comparing words compares bytes.
    @usableFromInline let word0, word1, word2, word3: UInt64

    /// The digest with these 32 bytes; nil for any other count. Inlinable, so that callers in other
    /// modules get it specialised for their collection type.
    @inlinable
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in bytes.enumerated() {
            switch index / 8 {
            case 0: words.0 = words.0 << 8 | UInt64(byte)
            case 1: words.1 = words.1 << 8 | UInt64(byte)
            case 2: words.2 = words.2 << 8 | UInt64(byte)
            default: words.3 = words.3 << 8 | UInt64(byte)
            }
        }
        (word0, word1, word2, word3) = words
    }

    /// Parses 64 hexadecimal digits (either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for pair in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.value(ofHexDigit: digits[pair]),
                  let low = Self.value(ofHexDigit: digits[pair + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    /// The 32 bytes, most significant first.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [word0, word1, word2, word3] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// The first 8 bytes as a big-endian integer: for a table that keys by part of a digest, as
    /// evenly spread as the whole.
    package var leadingWord: UInt64 { word0 }

    /// 64 lowercase hexadecimal digits.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let digest = ContentDigest(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected a SHA-256 digest of 64 hexadecimal digits, found \"\(text)\".")
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (lhs: ContentDigest, rhs: ContentDigest) -> Bool {
        (lhs.word0, lhs.word1, lhs.word2, lhs.word3) < (rhs.word0, rhs.word1, rhs.word2, rhs.word3)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func value(ofHexDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
