import CardBakeManifest
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
        var hasher = ContentDigest.Hasher()
        hasher.update(context)
        hasher.update(payload)
        return hasher.digest
    }
}
