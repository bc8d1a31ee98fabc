import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc

/// A cache file of keyed entries that a build appends its changes to rather than rewriting, so that
/// what a build writes follows what it changed, not the size of the table: the stat cache, the
/// action-cache index, the text coverage and the uses.
///
/// The file, integers big-endian:
///
///     "cardbake-<name> log 1\n"
///     frames, each: UInt32 body length, body, 32-byte SHA-256 of the length and the body
///     a body: Int64 note (the owner's: when the frame was saved, say), UInt32 change count,
///             per change: UInt32 key length, key, Int32 value length (-1: the key was removed), value
///
/// Reading stops at the first frame that is cut short or fails its checksum (an append that a killed
/// build left): the frames before it are the table, and the next save writes over the rest. When the
/// changes in the file outnumber the table's entries ``compactionRatio`` to one, the next save writes
/// the table whole instead, atomically (compaction): the file stays a small multiple of the table,
/// and the whole write, once in as many changes as the table holds, costs each change a constant.
///
/// Not for concurrent writers: the cache folder's lock keeps one build at a time.
package struct RecordLog: Sendable {
    package let file: URL
    private let header: [UInt8]

    /// How many changes the file may hold per entry of the table before a save compacts it.
    package static let compactionRatio = 2
    /// Changes a file may hold beyond that, so that small tables are not rewritten on every save.
    package static let compactionSlack = 4_096
    /// Changes per frame in a whole write, so that no frame need be held whole in memory.
    static let framedChanges = 4_096

    package init(file: URL, name: String) {
        self.file = file
        header = Array("cardbake-\(name) log 1\n".utf8)
    }

    /// One change: `value` nil when `key` was removed.
    package typealias Change = (key: Data, value: Data?)

    /// Where the file's intact part ends and how many changes it holds: what a save continues from.
    package struct End: Sendable, Equatable {
        package let length: Int64
        package let changes: Int
    }

    /// The file's bytes, read whole; nil when there is none or it cannot be read.
    package func bytes() -> Data? {
        try? ReadableFile(path: file.fileSystemPath).readToEnd()
    }

    /// Calls `change` with each change in `bytes` (the file's, as ``bytes()`` read them), oldest
    /// first, with its frame's note and nil for a removal; the intact part's end, nil when `bytes` is
    /// not a log of this name and version.
    package func read(_ bytes: Data,
                      _ change: (_ note: Int64, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) -> Void) -> End? {
        guard bytes.starts(with: header) else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(bytes: buffer, offset: header.count)
            var changes = 0
            while let body = Self.nextFrame(&reader) {
                var frame = BinaryReader(bytes: body, offset: 0)
                guard let note = frame.integer(Int64.self), let count = frame.integer(UInt32.self) else { break }
                // The frame passed its checksum, so a change that does not parse is a writer's bug: stop there.
                var parsed = 0
                while parsed < count, let keyLength = frame.integer(UInt32.self), let key = frame.bytes(Int(keyLength)),
                      let valueLength = frame.integer(Int32.self) {
                    if valueLength < 0 {
                        change(note, key, nil)
                    } else if let value = frame.bytes(Int(valueLength)) {
                        change(note, key, value)
                    } else {
                        break
                    }
                    parsed += 1
                }
                changes += parsed
                guard parsed == count, frame.remaining == 0 else { break }
            }
            return End(length: Int64(reader.offset), changes: changes)
        }
    }

    /// The body of the frame at the reader's offset, moving past it; nil, without moving, when the
    /// frame is cut short or damaged.
    private static func nextFrame(_ reader: inout BinaryReader) -> UnsafeRawBufferPointer? {
        var ahead = reader
        guard let length = ahead.integer(UInt32.self), let body = ahead.bytes(Int(length)),
              let checksum = ahead.bytes(32) else { return nil }
        let framed = UnsafeRawBufferPointer(rebasing: reader.bytes[reader.offset..<reader.offset + 4 + Int(length)])
        var hasher = ContentDigest.Hasher()
        hasher.update(framed)
        guard checksum.elementsEqual(hasher.digest.bytes) else { return nil }
        reader = ahead
        return body
    }

    /// Hands each change to `emit`, in order.
    package typealias Changes = (_ emit: (Change) throws -> Void) throws -> Void

    /// Saves a table whose file ended at `end` (nil: no intact file) and that now holds `entries`
    /// entries: the `count` changes since (`changes`) appended, or the whole table (`whole`, every
    /// entry as a change) written in its place when the file would hold too many changes for the
    /// table or is not intact. Returns the file's new end. Neither list is held whole in memory.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming the file, or what `changes` or
    ///   `whole` throw; a failed append leaves frames that reading passes over, a failed whole write
    ///   leaves the file as it was.
    package func save(_ count: Int, changes: Changes, entries: Int, note: Int64, after end: End?,
                      whole: Changes) throws -> End {
        guard let end, end.changes + count <= Self.compactionRatio * entries + Self.compactionSlack else {
            return try write(whole, note: note)
        }
        guard count > 0 else { return end }
        guard let file = try AppendedFile(path: self.file.fileSystemPath, at: end.length) else {
            return try write(whole, note: note)
        }
        let written = try Self.frames(changes, note: note, to: file.write)
        return End(length: end.length + written.bytes, changes: end.changes + written.changes)
    }

    /// Replaces the file, atomically, with one holding `changes`.
    @discardableResult
    package func write(_ changes: Changes, note: Int64) throws -> End {
        let pending = try AtomicFileWriter.PendingFile(replacing: file)
        try pending.append(header)
        let written = try Self.frames(changes, note: note, to: pending.append)
        try pending.commit()
        return End(length: Int64(header.count) + written.bytes, changes: written.changes)
    }

    /// Writes `changes` to `sink` in frames of at most ``framedChanges``; the bytes and changes written.
    private static func frames(_ changes: Changes, note: Int64,
                               to sink: (Data) throws -> Void) throws -> (bytes: Int64, changes: Int) {
        var frame = FrameBuffer(note: note)
        var written: (bytes: Int64, changes: Int) = (0, 0)
        try withoutActuallyEscaping(sink) { sink in
            func write(_ framed: (bytes: Data, changes: Int)?) throws {
                guard let framed else { return }
                try sink(framed.bytes)
                written.bytes += Int64(framed.bytes.count)
                written.changes += framed.changes
            }
            try changes { try write(frame.add($0)) }
            try write(frame.finish())
        }
        return written
    }
}

/// The frame being written: changes gathered until ``RecordLog/framedChanges``.
private struct FrameBuffer {
    let note: Int64
    private var body: [UInt8] = []
    private var count = 0

    init(note: Int64) {
        self.note = note
    }

    /// Adds `change`; the frame and its change count when that filled it.
    mutating func add(_ change: RecordLog.Change) -> (bytes: Data, changes: Int)? {
        body.appendBigEndian(UInt32(change.key.count))
        body.append(contentsOf: change.key)
        if let value = change.value {
            body.appendBigEndian(Int32(value.count))
            body.append(contentsOf: value)
        } else {
            body.appendBigEndian(Int32(-1))
        }
        count += 1
        return count == RecordLog.framedChanges ? finish() : nil
    }

    /// The frame of the changes added since the last, if any.
    mutating func finish() -> (bytes: Data, changes: Int)? {
        guard count > 0 else { return nil }
        var framed: [UInt8] = []
        framed.reserveCapacity(4 + 12 + body.count + 32)
        framed.appendBigEndian(UInt32(12 + body.count))
        framed.appendBigEndian(note)
        framed.appendBigEndian(UInt32(count))
        framed.append(contentsOf: body)
        framed.append(contentsOf: ContentDigest.sha256(framed).bytes)
        defer {
            body.removeAll(keepingCapacity: true)
            count = 0
        }
        return (Data(framed), count)
    }
}

/// A log file opened to append at the end of its intact part, cut there first (dropping what a
/// killed append left).
private final class AppendedFile {
    let path: String
    let descriptor: Int32

    /// Nil when there is no file at `path` (removed since it was read).
    init?(path: String, at offset: Int64) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError.cannotWrite(path: path, errno: errno)
        }
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            let code = errno
            close(descriptor)
            throw FileSystemError.cannotWrite(path: path, errno: code)
        }
    }

    func write(_ bytes: Data) throws {
        if let code = bytes.withUnsafeBytes({ AtomicFileWriter.writeAll($0, to: descriptor) }) {
            throw FileSystemError.cannotWrite(path: path, errno: code)
        }
    }

    deinit {
        close(descriptor)
    }
}
