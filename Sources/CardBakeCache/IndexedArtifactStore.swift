import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// An ``ArtifactStoring`` that answers action-cache lookups from a compact index read once per
/// build, in front of a store where each action result is a file of its own (or a remote request).
///
/// A lookup the index cannot answer goes to the underlying store and its answer joins the index.
/// Blobs always go to the underlying store, which checks them. ``save(to:)`` keeps the entries this
/// build used, so the next build of the same catalog makes one read instead of one per card and
/// scale. The index is a copy: losing it, or finding it damaged, only costs the lookups it saved.
package final class IndexedArtifactStore: ArtifactStoring {
    private let base: any ArtifactStoring
    private let index: Mutex<UsedEntries<ContentDigest, Data>>

    /// Wraps `base`, with the index saved in `file`; an empty index if `file` is nil, missing,
    /// damaged or of another format version.
    package init(base: any ArtifactStoring, loadingIndexFrom file: URL?) {
        self.base = base
        let saved = file.flatMap { try? ReadableFile(path: $0.fileSystemPath).readToEnd() }
        index = Mutex(UsedEntries(loaded: saved.flatMap(Self.decodeEntries) ?? [:]))
    }

    package func actionResult(for key: ContentDigest) async -> Data? {
        if let indexed = index.withLock({ $0.value(for: key) }) { return indexed }
        guard let record = await base.actionResult(for: key) else { return nil }
        index.withLock { $0.set(record, for: key) }
        return record
    }

    package func storeActionResult(_ record: Data, for key: ContentDigest) async throws {
        try await base.storeActionResult(record, for: key)
        index.withLock { $0.set(record, for: key) }
    }

    package func blob(_ digest: ContentDigest) async -> Data? {
        await base.blob(digest)
    }

    package func containsBlob(_ digest: ContentDigest) async -> Bool {
        await base.containsBlob(digest)
    }

    @discardableResult
    package func storeBlob(_ data: Data) async throws -> ContentDigest {
        try await base.storeBlob(data)
    }

    /// Writes atomically to `file` the action results looked up or stored since loading; writes
    /// nothing if that would not change the file.
    package func save(to file: URL) throws {
        guard let pending = index.withLock({ $0.pendingSave() }) else { return }
        try AtomicFileWriter.write(Self.encode(pending.entries), to: file)
        index.withLock { $0.saved(pending.generation) }
    }
}

/// The index file, integers big-endian:
///
///     "cardbake-ac-index 1\n"
///     UInt32 entry count
///     per entry: 32 key bytes, UInt32 record length, record
///     32-byte SHA-256 of everything before it
///
/// A file that does not start with this exact header, or fails its checksum, is ignored whole.
extension IndexedArtifactStore {
    private static let header = Array("cardbake-ac-index 1\n".utf8)

    package static func encode(_ entries: [ContentDigest: Data]) -> Data {
        var bytes = header
        bytes.reserveCapacity(header.count + 4 + entries.values.reduce(0) { $0 + 36 + $1.count } + 32)
        bytes.appendBigEndian(UInt32(entries.count))
        for (key, record) in entries.sorted(by: { $0.key < $1.key }) {
            bytes.append(contentsOf: key.bytes)
            bytes.appendBigEndian(UInt32(record.count))
            bytes.append(contentsOf: record)
        }
        return Data(bytes).appendingChecksum()
    }

    /// The entries of an index file; nil if it is not one, of this version, intact.
    package static func decodeEntries(_ file: Data) -> [ContentDigest: Data]? {
        guard file.starts(with: header), let body = file.removingChecksum() else { return nil }
        return body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: header.count)
            guard let count = reader.integer(UInt32.self) else { return nil }
            var entries: [ContentDigest: Data] = [:]
            entries.reserveCapacity(min(Int(count), reader.remaining / 36))
            for _ in 0..<count {
                guard let keyBytes = reader.bytes(32), let key = ContentDigest(bytes: keyBytes),
                      let length = reader.integer(UInt32.self),
                      let record = reader.bytes(Int(length)) else { return nil }
                entries[key] = Data(record)
            }
            return reader.remaining == 0 && entries.count == Int(count) ? entries : nil
        }
    }
}
