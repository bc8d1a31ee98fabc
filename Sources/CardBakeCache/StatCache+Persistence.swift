import CardBakeFiles
import CardBakeManifest
import Foundation

/// The stat-cache file, all integers big-endian:
///
///     "cardbake-stat-cache 2\n"
///     UInt32 entry count
///     Int64 saved at: the moment of recording of every entry (nanoseconds since 1970)
///     per entry: UInt32 path length, path (UTF-8), Int64 size, Int64 modification time,
///                UInt64 inode, Int64 change time, 32 digest bytes
///     32-byte SHA-256 of everything before it
///
/// A file that does not start with this exact header, or fails its checksum, is ignored whole:
/// changing the format means changing the header's version.
extension StatCache {
    private static let header = Array("cardbake-stat-cache 2\n".utf8)
    /// The bytes of an entry other than its path.
    private static let fixedEntrySize = 4 + 4 * 8 + 32

    /// The file holding `entries`, recorded at `savedAt` (their own moments of recording are not kept).
    package static func encode(_ entries: [String: Entry], savedAt: Int64) -> Data {
        var body = Data()
        encode(entries, savedAt: savedAt) { body.append($0) }
        return body.appendingChecksum()
    }

    /// Hands `sink` the file holding `entries` but those at the paths in `leftOut` (which must have
    /// entries), all but its checksum, an entry at a time.
    package static func encode(_ entries: [String: Entry], leavingOut leftOut: Set<String> = [], savedAt: Int64,
                               to sink: (Data) throws -> Void) rethrows {
        var bytes = header
        bytes.appendBigEndian(UInt32(entries.count - leftOut.count))
        bytes.appendBigEndian(savedAt)
        try sink(Data(bytes))
        for (path, entry) in entries where !leftOut.contains(path) {
            bytes.removeAll(keepingCapacity: true)
            bytes.appendText(path)
            bytes.appendFileStatus(entry.status)
            bytes.append(contentsOf: entry.digest.bytes)
            try sink(Data(bytes))
        }
    }

    /// The entries in a stat-cache file, each recorded when the file was saved; nil if it is not
    /// one, of this version, intact.
    package static func decodeEntries(_ file: Data) -> [String: Entry]? {
        guard file.starts(with: header), let body = file.removingChecksum() else { return nil }
        return body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: header.count)
            guard let count = reader.integer(UInt32.self), let savedAt = reader.integer(Int64.self) else { return nil }
            var entries: [String: Entry] = [:]
            // The count is checked against the entries read; bounding the reservation by the bytes left
            // keeps a file with a huge count from reserving memory it does not describe.
            entries.reserveCapacity(min(Int(count), reader.remaining / fixedEntrySize))
            for _ in 0..<count {
                guard let path = reader.text(), let status = reader.fileStatus(),
                      let digest = reader.bytes(32).flatMap(ContentDigest.init(bytes:)) else { return nil }
                entries[path] = Entry(status: status, digest: digest, recordedAt: savedAt)
            }
            return reader.remaining == 0 && entries.count == Int(count) ? entries : nil
        }
    }
}
