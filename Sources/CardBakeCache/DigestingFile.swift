import CardBakeFiles
import CardBakeManifest
import Foundation

/// A file written a piece at a time (``AtomicFileWriter/PendingFile``) while the SHA-256 of its
/// bytes is computed, so that a caller can compare the digest with the file in place before
/// publishing it, without holding the bytes.
package final class DigestingFile {
    private let file: AtomicFileWriter.PendingFile
    private var hasher = ContentDigest.Hasher()

    /// Throws as ``AtomicFileWriter/PendingFile/init(replacing:temporaryName:)``.
    package init(replacing url: URL) throws {
        file = try AtomicFileWriter.PendingFile(replacing: url)
    }

    package func append(_ bytes: some DataProtocol) throws {
        hasher.update(bytes)
        try file.append(bytes)
    }

    /// The digest of the bytes appended so far.
    package var digest: ContentDigest { hasher.digest }

    /// Publishes the file (``AtomicFileWriter/PendingFile/commit()``).
    package func commit() throws {
        try file.commit()
    }

    /// Writes atomically to `url` the bytes `produce` hands its sink, then their SHA-256: a cache file
    /// with the checksum ``Foundation/Data/appendingChecksum(context:)`` gives without a context, its
    /// bytes never all in memory.
    package static func writeChecksummed(to url: URL, _ produce: (_ sink: (Data) throws -> Void) throws -> Void) throws {
        let file = try DigestingFile(replacing: url)
        try produce { try file.append($0) }
        try file.append(file.digest.bytes)
        try file.commit()
    }

    /// Removes the file, leaving the destination as it was.
    package func discard() {
        file.discard()
    }
}
