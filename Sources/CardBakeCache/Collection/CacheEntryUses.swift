import CardBakeFiles
import CardBakeManifest
import Foundation

/// When each entry of a cache folder was last used by a build (read, checked or written), kept in
/// one file that a build updates once, at its end, with the entries it used. Garbage collection
/// removes the least recently used entries first; an entry with no time here (written by a build
/// that was killed before its end) counts as used when its file was last modified.
///
/// The file, integers big-endian:
///
///     "cardbake-uses 1\n"
///     UInt32 entry count
///     per entry: UInt8 area (0 ac, 1 cas), 32 digest bytes, Int64 seconds since 1970
///     32-byte SHA-256 of everything before it
///
/// A file that is missing, damaged or of another version reads as empty: it only orders collection.
package struct CacheEntryUses: Equatable, Sendable {
    /// The file's name in the cache folder.
    package static let fileName = "uses"
    private static let header = Array("cardbake-uses 1\n".utf8)
    private static let entrySize = 1 + 32 + 8

    /// Seconds since 1970 of each entry's last use.
    package private(set) var times: [CacheEntryID: Int64]

    package init(times: [CacheEntryID: Int64] = [:]) {
        self.times = times
    }

    /// The uses saved in the cache folder `folder`; empty when there are none.
    package init(loadingFrom folder: URL) {
        let file = try? ReadableFile(path: folder.appendingPathComponent(Self.fileName).fileSystemPath).readToEnd()
        self.init(times: file.flatMap(Self.decode) ?? [:])
    }

    /// Marks `entry` used at `seconds`.
    package mutating func use(_ entry: CacheEntryID, at seconds: Int64) {
        times[entry] = max(times[entry] ?? seconds, seconds)
    }

    /// Forgets `entries` (removed from the cache).
    package mutating func forget(_ entries: some Sequence<CacheEntryID>) {
        for entry in entries {
            times[entry] = nil
        }
    }

    /// Keeps only `entries` (those the cache holds).
    package mutating func keepOnly(_ entries: Set<CacheEntryID>) {
        times = times.filter { entries.contains($0.key) }
    }

    /// Writes the uses atomically into the cache folder `folder`, an entry at a time.
    package func save(in folder: URL) throws {
        try DigestingFile.writeChecksummed(to: folder.appendingPathComponent(Self.fileName)) { sink in
            var bytes = Self.header
            bytes.appendBigEndian(UInt32(times.count))
            try sink(Data(bytes))
            for (entry, seconds) in times.sorted(by: { $0.key < $1.key }) {
                bytes = [entry.area.rawValue] + entry.digest.bytes
                bytes.appendBigEndian(seconds)
                try sink(Data(bytes))
            }
        }
    }

    /// The times in a uses file; nil if it is not one, of this version, intact.
    package static func decode(_ file: Data) -> [CacheEntryID: Int64]? {
        guard file.starts(with: header), let body = file.removingChecksum() else { return nil }
        return body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes: bytes, offset: header.count)
            guard let count = reader.integer(UInt32.self) else { return nil }
            var times: [CacheEntryID: Int64] = [:]
            times.reserveCapacity(min(Int(count), reader.remaining / entrySize))
            for _ in 0..<count {
                guard let area = reader.integer(UInt8.self).flatMap(CacheEntryID.Area.init(rawValue:)),
                      let digest = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                      let seconds = reader.integer(Int64.self) else { return nil }
                times[CacheEntryID(area, digest)] = seconds
            }
            return reader.remaining == 0 && times.count == Int(count) ? times : nil
        }
    }
}
