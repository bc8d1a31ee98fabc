import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc
import Synchronization

/// An ``ArtifactStoring`` in a directory, safe to share between threads and between processes.
///
/// Layout under `root`:
///
///     VERSION                  the layout marker, "cardbake-cache 1"
///     ac/<2 hex>/<64 hex>      action results: the record, then SHA-256(key ‖ record)
///     cas/<2 hex>/<64 hex>     blobs, named by the SHA-256 of their bytes
///
/// Every entry is written with ``AtomicFileWriter``, so readers never see a partial entry and two
/// processes storing the same entry at once both succeed. Every read is checked: a blob must
/// hash to its name and an action result must match its trailing checksum, which also binds it
/// to its key. An entry that fails the check is deleted and reported as a miss. (A process that
/// deletes a damaged entry just as another replaces it can delete the good copy too; that costs
/// one more miss, never a wrong result.)
public struct DiskArtifactStore: ArtifactStoring {
    /// The contents of `<root>/VERSION` for the layout this type reads and writes.
    public static let layout = "cardbake-cache 1"

    /// The cache directory, e.g. a project's `.cardbake/`.
    public let root: URL
    /// False for a store opened only to read: it creates nothing and leaves damaged entries in place.
    private let writable: Bool
    private let verified = VerifiedBlobs()
    /// Notes each blob read or written: the oldest leave the page cache once they exceed its budget.
    private let pageCache = PageCacheBudget.bitmaps

    /// Opens the store in `root`, creating the directory and its `VERSION` file if missing.
    ///
    /// - Throws: ``CacheError/incompatibleStore(path:found:)`` if `VERSION` names another layout;
    ///   ``FileSystemError/cannotRead(path:errno:)`` or ``FileSystemError/cannotWrite(path:errno:)``
    ///   if the marker cannot be read or written.
    public init(root: URL) throws {
        try self.init(root: root, writable: true)
    }

    /// Opens the store in `root` to read it only (`cardbake check`): nothing is created, a folder
    /// without `VERSION` reads as empty, and a damaged entry is a miss that stays where it is.
    ///
    /// - Throws: ``CacheError/incompatibleStore(path:found:)`` if `VERSION` names another layout;
    ///   ``FileSystemError/cannotRead(path:errno:)`` if it cannot be read.
    package init(readingFrom root: URL) throws {
        try self.init(root: root, writable: false)
    }

    private init(root: URL, writable: Bool) throws {
        self.root = root
        self.writable = writable
        let marker = root.appendingPathComponent("VERSION")
        let expected = Data((Self.layout + "\n").utf8)
        do {
            let found = try ReadableFile(path: marker.fileSystemPath).readToEnd()
            guard found == expected else {
                let summary = String(decoding: found.prefix(80), as: UTF8.self)
                throw CacheError.incompatibleStore(path: root.fileSystemPath,
                                                   found: summary.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        } catch FileSystemError.cannotRead(_, ENOENT) {
            if writable {
                try AtomicFileWriter.write(expected, to: marker)
            }
        }
    }

    public func actionResult(for key: ContentDigest) -> Data? {
        readEntry(at: actionResultURL(for: key)) { $0.removingChecksum(context: key.bytes) }
    }

    public func storeActionResult(_ record: Data, for key: ContentDigest) throws {
        try writeEntry(record.appendingChecksum(context: key.bytes), to: actionResultURL(for: key))
    }

    public func blob(_ digest: ContentDigest) -> Data? {
        let path = blobURL(for: digest).fileSystemPath
        guard let file = try? ReadableFile(path: path), let status = try? file.status(),
              let entry = try? file.readToEnd() else { return nil }
        pageCache.cached(path, bytes: entry.count)
        // A blob this process just hashed (looking it up or storing it), unchanged since, is not hashed again.
        guard verified.take(digest, as: status) || ContentDigest.sha256(entry) == digest else {
            discard(path)
            return nil
        }
        return entry
    }

    public func containsBlob(_ digest: ContentDigest) -> Bool {
        let path = blobURL(for: digest).fileSystemPath
        guard let file = try? ReadableFile(path: path), let status = try? file.status(),
              let found = try? ContentDigest.sha256(of: file) else { return false }
        pageCache.cached(path, bytes: Int(status.size))
        guard found == digest else {
            discard(path)
            return false
        }
        verified.note(digest, as: status)
        return true
    }

    /// The blob's file in `cas/`, hashed again unless this process hashed it and its status (size,
    /// times, inode) has not changed since. A blob's file may be hard-linked into an output folder,
    /// where an image optimiser can rewrite it in place: that changes its change time, so it is
    /// hashed, found damaged and removed.
    public func blobFile(_ digest: ContentDigest) -> String? {
        let path = blobURL(for: digest).fileSystemPath
        guard let file = try? ReadableFile(path: path), let status = try? file.status() else { return nil }
        guard verified.take(digest, as: status) || (try? ContentDigest.sha256(of: file)) == digest else {
            discard(path)
            return nil
        }
        return path
    }

    @discardableResult
    public func storeBlob(_ data: Data) throws -> ContentDigest {
        let digest = ContentDigest.sha256(data)
        try storeBlob(data, hashedAs: digest)
        return digest
    }

    public func storeBlob(_ data: Data, hashedAs digest: ContentDigest) throws {
        let url = blobURL(for: digest)
        try writeEntry(data, to: url)
        pageCache.cached(url.fileSystemPath, bytes: data.count)
        if let status = try? FileStatus(path: url.fileSystemPath) {
            verified.note(digest, as: status)
        }
    }

    /// Where the action result for `key` is kept.
    package func actionResultURL(for key: ContentDigest) -> URL {
        entryURL(in: "ac", named: key)
    }

    /// Where the blob with `digest` is kept.
    package func blobURL(for digest: ContentDigest) -> URL {
        entryURL(in: "cas", named: digest)
    }

    private func entryURL(in area: String, named digest: ContentDigest) -> URL {
        let name = digest.description
        return root.appendingPathComponent(area)
            .appendingPathComponent(String(name.prefix(2)))
            .appendingPathComponent(name)
    }

    /// Reads an entry and returns what `check` makes of it; an entry `check` rejects is deleted.
    /// Any failure to read is a miss.
    private func readEntry(at url: URL, check: (Data) -> Data?) -> Data? {
        let path = url.fileSystemPath
        guard let entry = try? ReadableFile(path: path).readToEnd() else { return nil }
        guard let payload = check(entry) else {
            discard(path)
            return nil
        }
        return payload
    }

    /// Removes a damaged entry, unless the store is only read.
    private func discard(_ path: String) {
        if writable {
            unlink(path)
        }
    }

    /// Writes an entry unless an identical one is already there, which makes repeated stores cheap.
    private func writeEntry(_ entry: Data, to url: URL) throws {
        if let existing = try? ReadableFile(path: url.fileSystemPath).readToEnd(), existing == entry { return }
        try AtomicFileWriter.write(entry, to: url)
    }
}

/// Blobs this process hashed intact, with their files' status then: a blob found intact while
/// looking up, or just stored, is read back or linked once while writing without hashing it a second
/// time, unless its file changed. An entry goes when it is used; a blob that is never used again (its
/// output already in place) goes when ``capacity`` newer ones have been noted, so the table stays the
/// same size however many cards a build has. A blob used after its entry went is hashed again.
private final class VerifiedBlobs: Sendable {
    /// More than the blobs a build looks up at a time (a bitmap per scale of each card in its
    /// planning window of 512) before their outputs are written, which links or reads each.
    static let capacity = 4096

    private struct Table {
        var statuses: [ContentDigest: FileStatus] = [:]
        /// The digests noted, oldest first from `next` on, in a ring of ``capacity``.
        var noted: [ContentDigest] = []
        var next = 0
    }

    private let table = Mutex(Table())

    func note(_ digest: ContentDigest, as status: FileStatus) {
        table.withLock { table in
            table.statuses[digest] = status
            if table.noted.count < Self.capacity {
                table.noted.append(digest)
                return
            }
            // A digest noted again since goes too: it is hashed again if read, no more.
            let oldest = table.noted[table.next]
            if oldest != digest {
                table.statuses[oldest] = nil
            }
            table.noted[table.next] = digest
            table.next = (table.next + 1) % Self.capacity
        }
    }

    /// Whether `digest` was noted with `status`; the entry is removed either way.
    func take(_ digest: ContentDigest, as status: FileStatus) -> Bool {
        table.withLock { $0.statuses.removeValue(forKey: digest) == status }
    }
}
