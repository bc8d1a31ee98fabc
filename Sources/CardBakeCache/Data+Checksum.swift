import CardBakeManifest
import Crypto
import Foundation

extension Data {
    /// These bytes followed by a 32-byte checksum, SHA-256(`context` ‖ these bytes).
    ///
    /// `context` binds the bytes to where they belong (an action result to its key) without being stored.
    package func appendingChecksum(context: [UInt8] = []) -> Data {
        self + Self.checksum(of: self, context: context).bytes
    }

    /// The bytes before the trailing checksum written by ``appendingChecksum(context:)``;
    /// nil if there is no room for one or it does not match.
    package func removingChecksum(context: [UInt8] = []) -> Data? {
        guard count >= 32 else { return nil }
        let payload = dropLast(32)
        guard suffix(32).elementsEqual(Self.checksum(of: payload, context: context).bytes) else { return nil }
        // Zero-based as callers expect, and a slice of these bytes rather than a copy when it already
        // is: the index of a large catalog is megabytes.
        return payload.startIndex == 0 ? payload : Data(payload)
    }

    private static func checksum(of payload: Data, context: [UInt8]) -> ContentDigest {
        var hasher = SHA256()
        hasher.update(data: context)
        hasher.update(data: payload)
        return ContentDigest(hasher.finalize())
    }
}

/// A cache file's bytes gathered into pieces of about 64 KiB for a sink, then their SHA-256: the
/// bytes ``Foundation/Data/appendingChecksum(context:)`` gives without a context, never all in memory.
package struct ChecksummedPieces {
    private static let pieceSize = 1 << 16
    /// The bytes not yet handed over: append to them, then call ``handOverIfFull(to:)``.
    package var bytes: [UInt8]
    private var checksum = ContentDigest.Hasher()

    /// Pieces that start with `header`.
    package init(header: [UInt8]) {
        bytes = header
        bytes.reserveCapacity(Self.pieceSize + 4096)
    }

    /// Hands the bytes to `sink` once they make a piece.
    package mutating func handOverIfFull(to sink: (Data) throws -> Void) rethrows {
        if bytes.count >= Self.pieceSize {
            try handOver(to: sink)
        }
    }

    /// Hands the bytes left to `sink`, then the checksum of all of them.
    package mutating func finish(to sink: (Data) throws -> Void) rethrows {
        try handOver(to: sink)
        try sink(Data(checksum.digest.bytes))
    }

    private mutating func handOver(to sink: (Data) throws -> Void) rethrows {
        checksum.update(bytes)
        try sink(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
