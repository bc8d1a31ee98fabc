import CardBakeFiles
import CardBakeManifest
import Foundation

/// The stat-cache file: a ``RecordLog`` named `stat-cache`, keyed by path (UTF-8), each value the
/// file's size, modification time, inode and change time (Int64, Int64, UInt64, Int64, big-endian)
/// then its 32 digest bytes. A frame's note is the moment it was saved (nanoseconds since 1970):
/// the moment of recording of every entry in it.
extension StatCache {
    /// The stat-cache file at `file`.
    static func log(at file: URL) -> RecordLog {
        RecordLog(file: file, name: "stat-cache")
    }

    /// A stat-cache file's entries and where its intact part ends.
    struct Contents {
        var entries: [String: Entry]
        let end: RecordLog.End?

        static let empty = Contents(entries: [:], end: nil)
    }

    /// The entries in `bytes`, read from `file`, each recorded when its frame was saved; empty when
    /// they are not a stat-cache file of this version.
    static func decode(_ bytes: Data, of file: URL) -> Contents {
        var entries: [String: Entry] = [:]
        // An entry takes some 140 bytes of the file (a path of 60 or so): room for them all at once
        // rather than a table rebuilt at every doubling.
        entries.reserveCapacity(bytes.count / 140)
        let end = log(at: file).read(bytes) { savedAt, key, value in
            let path = String(decoding: key, as: UTF8.self)
            guard let value else {
                entries[path] = nil
                return
            }
            var reader = BinaryReader(bytes: value, offset: 0)
            // A value of another shape drops the path's entry: it can only cost a read of the file.
            guard let status = reader.fileStatus(), let digest = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                  reader.remaining == 0 else {
                entries[path] = nil
                return
            }
            entries[path] = Entry(status: status, digest: digest, recordedAt: savedAt)
        }
        return end.map { Contents(entries: entries, end: $0) } ?? .empty
    }

    /// `entry` as a change of the file.
    static func change(_ path: String, _ entry: Entry?) -> RecordLog.Change {
        guard let entry else { return (Data(path.utf8), nil) }
        var value: [UInt8] = []
        value.appendFileStatus(entry.status)
        value.append(contentsOf: entry.digest.bytes)
        return (Data(path.utf8), Data(value))
    }

    /// Writes `entries`, recorded at `savedAt`, as the whole stat-cache file `file`.
    package static func write(_ entries: [String: Entry], savedAt: Int64, to file: URL) throws {
        try log(at: file).write({ emit in try entries.forEach { try emit(change($0.key, $0.value)) } }, note: savedAt)
    }
}
