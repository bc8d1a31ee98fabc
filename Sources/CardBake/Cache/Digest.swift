import Crypto
import Foundation

/// A SHA-256 digest: the identity of a blob in the content-addressed store and the form of every cache key.
///
/// Its text form, used by `description` and by `Codable`, is 64 lowercase hexadecimal digits.
/// Digests order as their bytes (and so as their text) do.
public struct Digest: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    // The 32 bytes as four big-endian words, so that comparing words compares bytes.
    private let word0, word1, word2, word3: UInt64

    /// The digest with these 32 bytes; nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words = [UInt64](repeating: 0, count: 4)
        for (index, byte) in bytes.enumerated() {
            words[index / 8] = words[index / 8] << 8 | UInt64(byte)
        }
        (word0, word1, word2, word3) = (words[0], words[1], words[2], words[3])
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

    /// The SHA-256 of `data`.
    public static func sha256(_ data: some DataProtocol) -> Digest {
        Digest(SHA256.hash(data: data))
    }

    /// The SHA-256 of a file's bytes, read in chunks of at most 1 MiB rather than all at once.
    ///
    /// - Throws: ``CacheError/cannotRead(path:errno:)`` naming the file.
    public static func sha256(ofFileAt url: URL) throws -> Digest {
        try sha256(of: ReadableFile(path: url.fileSystemPath))
    }

    /// The SHA-256 of the rest of an open file.
    static func sha256(of file: borrowing ReadableFile) throws -> Digest {
        // A small file needs only a small buffer: one byte over its length reaches the end in one read.
        let chunkSize = min(1 << 20, Int(try file.status().size) + 1)
        var hasher = SHA256()
        try withUnsafeTemporaryAllocation(byteCount: chunkSize, alignment: 16) { buffer in
            while case let count = try file.read(into: buffer), count > 0 {
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
        return Digest(hasher.finalize())
    }

    /// The 32 bytes, most significant first.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [word0, word1, word2, word3] {
            bytes.appendBigEndian(word)
        }
        return bytes
    }

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
        guard let digest = Digest(hex: text) else {
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

    public static func < (lhs: Digest, rhs: Digest) -> Bool {
        (lhs.word0, lhs.word1, lhs.word2, lhs.word3) < (rhs.word0, rhs.word1, rhs.word2, rhs.word3)
    }

    /// The digest swift-crypto computed.
    init(_ digest: SHA256.Digest) {
        self.init(bytes: Array(digest))!
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
