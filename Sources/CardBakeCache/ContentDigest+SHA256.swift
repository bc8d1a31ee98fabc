import CardBakeFiles
import CardBakeManifest
import Crypto
import Foundation

extension ContentDigest {
    /// The SHA-256 of `data`.
    public static func sha256(_ data: some DataProtocol) -> ContentDigest {
        ContentDigest(SHA256.hash(data: data))
    }

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

    /// The SHA-256 of bytes handed to it a piece at a time.
    package struct Hasher {
        private var state = SHA256()

        package init() {}

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            state.update(bufferPointer: bytes)
        }

        package mutating func update(_ bytes: some DataProtocol) {
            state.update(data: bytes)
        }

        /// The digest of the bytes so far.
        package var digest: ContentDigest { ContentDigest(state.finalize()) }
    }

    /// The digest swift-crypto computed.
    package init(_ digest: SHA256.Digest) {
        self.init(bytes: Array(digest))!
    }

}
