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

    /// Removes the file, leaving the destination as it was.
    package func discard() {
        file.discard()
    }
}
