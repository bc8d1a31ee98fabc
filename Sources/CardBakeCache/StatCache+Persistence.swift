import CardBakeFiles
import CardBakeManifest
import Foundation

/// The stat-cache file, all integers big-endian:
///
///     "cardbake-stat-cache 1\n"
///     UInt32 entry count
///     per entry: UInt32 path length, path (UTF-8), Int64 size, Int64 modification time,
///                UInt64 inode, Int64 change time, Int64 recorded at, 32 digest bytes
///     32-byte SHA-256 of everything before it
///
/// A file that does not start with this exact header, or fails its checksum, is ignored whole:
/// changing the format means changing the header's version.
extension StatCache {
    private static let header = Array("cardbake-stat-cache 1\n".utf8)
    /// The bytes of an entry other than its path.
    private static let fixedEntrySize = 4 + 5 * 8 + 32

    package static func encode(_ entries: [String: Entry]) -> Data {
        var bytes = header
        bytes.reserveCapacity(header.count + 4 + entries.count * (fixedEntrySize + 64) + 32)
        bytes.appendBigEndian(UInt32(entries.count))
        for (path, entry) in entries {
            bytes.appendBigEndian(UInt32(path.utf8.count))
            bytes.append(contentsOf: path.utf8)
            bytes.appendBigEndian(entry.status.size)
            bytes.appendBigEndian(entry.status.modificationTime)
            bytes.appendBigEndian(entry.status.inode)
            bytes.appendBigEndian(entry.status.changeTime)
            bytes.appendBigEndian(entry.recordedAt)
            bytes.append(contentsOf: entry.digest.bytes)
        }
        return Data(bytes).appendingChecksum()
    }

    /// The entries in a stat-cache file; nil if it is not one, of this version, intact.
    package static func decodeEntries(_ file: Data) -> [String: Entry]? {
        guard file.starts(with: header), let body = file.removingChecksum() else { return nil }
        return body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: header.count)
            guard let count = reader.integer(UInt32.self) else { return nil }
            var entries: [String: Entry] = [:]
            // The count is checked against the entries read; bounding the reservation by the bytes left
            // keeps a file with a huge count from reserving memory it does not describe.
            entries.reserveCapacity(min(Int(count), reader.remaining / fixedEntrySize))
            for _ in 0..<count {
                guard let pathLength = reader.integer(UInt32.self),
                      let path = reader.bytes(Int(pathLength)),
                      let size = reader.integer(Int64.self),
                      let modificationTime = reader.integer(Int64.self),
                      let inode = reader.integer(UInt64.self),
                      let changeTime = reader.integer(Int64.self),
                      let recordedAt = reader.integer(Int64.self),
                      let digestBytes = reader.bytes(32),
                      let digest = ContentDigest(bytes: digestBytes) else { return nil }
                let status = FileStatus(size: size, modificationTime: modificationTime, inode: inode,
                                        changeTime: changeTime)
                entries[String(decoding: path, as: UTF8.self)] = Entry(status: status, digest: digest,
                                                                       recordedAt: recordedAt)
            }
            return reader.remaining == 0 && entries.count == Int(count) ? entries : nil
        }
    }
}
