import CardBakeFiles
import CardBakeManifest
import CLibcrypto
import Foundation

extension ContentDigest {
    /// The SHA-256 of `data`.
    public static func sha256(_ data: some DataProtocol) -> ContentDigest {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.digest
    }

    /// ``sha256(_:)`` of `Data` as a function value: what a ``ManifestReader`` takes to check the
    /// manifest's pages with libcrypto rather than Swift's own SHA-256.
    package static let sha256OfData: @Sendable (Data) -> ContentDigest = { sha256($0) }

    /// The SHA-256 of a file's bytes, read in chunks of at most 1 MiB rather than all at once.
    ///
    /// - Throws: ``FileSystemError/cannotRead(path:errno:)`` naming the file.
    public static func sha256(ofFileAt url: URL) throws -> ContentDigest {
        try sha256(of: ReadableFile(path: url.fileSystemPath))
    }

    /// The SHA-256 of the rest of an open file.
    package static func sha256(of file: borrowing ReadableFile) throws -> ContentDigest {
        // A small file needs only a small buffer: one byte over its length reaches the end in one read.
        let chunkSize = min(1 << 20, Int(try file.status().size) + 1)
        var hasher = Hasher()
        try withUnsafeTemporaryAllocation(byteCount: chunkSize, alignment: 16) { buffer in
            while case let count = try file.read(into: buffer), count > 0 {
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
        return hasher.digest
    }

    /// The SHA-256 of the bytes `produce` hands its sink, a piece at a time, none of them kept.
    package static func sha256(streaming produce: (_ sink: (Data) -> Void) throws -> Void) rethrows -> ContentDigest {
        var hasher = Hasher()
        try produce { hasher.update($0) }
        return hasher.digest
    }

    /// The SHA-256 of bytes handed to it a piece at a time: OpenSSL's libcrypto, whose assembly uses
    /// the processor's SHA extensions or AVX2 (docs/ARCHITECTURE.md, "Dependencies", has the figures).
    ///
    /// A value: a copy hashes on from where the original was, independently of it.
    package struct Hasher: Sendable {
        /// libcrypto's state, a plain C struct (eight words, a length and a partial block).
        private var state = SHA256_CTX()

        package init() {
            SHA256_Init(&state)
        }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
            SHA256_Update(&state, start, bytes.count)
        }

        package mutating func update(_ bytes: some DataProtocol) {
            for region in bytes.regions {
                region.withUnsafeBytes { update($0) }
            }
        }

        /// The digest of the bytes so far; the hasher can go on.
        package var digest: ContentDigest {
            var finished = state
            var bytes = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            SHA256_Final(&bytes, &finished)
            return ContentDigest(bytes: bytes)!
        }
    }
}
