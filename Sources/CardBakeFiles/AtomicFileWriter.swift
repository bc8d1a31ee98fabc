import Foundation
import Glibc

/// Replaces files atomically: a reader, in this process or another, sees the old file or the
/// complete new one, never a partial write.
///
/// The bytes go to a temporary file named `.tmp-<pid>-<random>` in the destination's directory,
/// which is then renamed over the destination. The temporary file is removed on any failure.
/// The data is not flushed to disk (`fsync`), so a power cut can still lose a recent write;
/// the cache stores check what they read and treat a damaged file as a miss.
package enum AtomicFileWriter {
    /// Writes `data` to `url`, creating missing parent directories and replacing any existing file.
    ///
    /// New files get the permissions `0666` less the process's umask, as with `open(2)`.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming `url`, or
    ///   ``FileSystemError/cannotCreateDirectory(path:errno:)`` naming the directory that could not be made.
    ///
    /// `temporaryName` replaces the usual random one, for a writer that must find its own
    /// temporary file again after being killed.
    package static func write(_ data: Data, to url: URL, temporaryName: String? = nil) throws {
        let file = try PendingFile(replacing: url, temporaryName: temporaryName)
        try file.append(data)
        try file.commit()
    }

    /// A file written a piece at a time under a temporary name beside `url`, published there by
    /// ``commit()``: what ``write(_:to:temporaryName:)`` does, for bytes too many to hold at once.
    /// Removed if it is never committed, or when a write fails.
    package final class PendingFile {
        private let destination: String
        private let temporary: String
        private var descriptor: Int32
        /// Appended bytes not yet written: small pieces are gathered into writes of about ``writeSize``.
        private var pending = Data()
        private static let writeSize = 1 << 16

        /// Creates the temporary file, and missing parent directories; throws as ``write(_:to:temporaryName:)``.
        package init(replacing url: URL, temporaryName: String? = nil) throws {
            destination = url.fileSystemPath
            let directory = url.deletingLastPathComponent()
            temporary = directory.appendingPathComponent(temporaryName ?? AtomicFileWriter.temporaryName()).fileSystemPath
            descriptor = try createFile(atPath: temporary, in: directory, reportingAs: destination)
        }

        /// Appends `bytes`. Throws ``FileSystemError/cannotWrite(path:errno:)`` naming the destination.
        package func append(_ bytes: some DataProtocol) throws {
            precondition(descriptor >= 0, "appended to a file already committed or discarded")
            if pending.isEmpty, bytes.count >= Self.writeSize {
                for region in bytes.regions {
                    try region.withUnsafeBytes(write)
                }
            } else {
                pending.append(contentsOf: bytes)
                if pending.count >= Self.writeSize {
                    try writePending()
                }
            }
        }

        /// Renames the file over the destination, atomically.
        package func commit() throws {
            precondition(descriptor >= 0, "committed a file already committed or discarded")
            try writePending()
            // Close before renaming: the rename publishes the file, and a failed close can mean lost data.
            let closeError = close(descriptor) == 0 || errno == EINTR ? nil : errno
            descriptor = -1
            if let code = closeError ?? (rename(temporary, destination) == 0 ? nil : errno) {
                unlink(temporary)
                throw FileSystemError.cannotWrite(path: destination, errno: code)
            }
        }

        /// Removes the file, leaving the destination as it was.
        package func discard() {
            guard descriptor >= 0 else { return }
            abandon()
        }

        private func writePending() throws {
            try pending.withUnsafeBytes(write)
            pending.removeAll(keepingCapacity: true)
        }

        private func write(_ bytes: UnsafeRawBufferPointer) throws {
            if let code = writeAll(bytes, to: descriptor) {
                abandon()
                throw FileSystemError.cannotWrite(path: destination, errno: code)
            }
        }

        private func abandon() {
            close(descriptor)
            descriptor = -1
            unlink(temporary)
        }

        deinit {
            discard()
        }
    }

    /// Makes `url` a hard link to the file at `source`, replacing any file there atomically, and creating
    /// missing parent directories. Returns false, changing nothing, when the file system cannot link the
    /// two (different file systems, or no hard links): the caller copies instead.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming `url`.
    package static func link(_ source: URL, to url: URL) throws -> Bool {
        let destination = url.fileSystemPath
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(temporaryName()).fileSystemPath
        var result = Glibc.link(source.fileSystemPath, temporary)
        if result != 0 && errno == ENOENT {
            // The directory may be missing, or made meanwhile by another writer (a build links files
            // into a folder, such as a locale's, from several threads): either way, make sure it is
            // there and link again. A missing source fails the second time too.
            try createDirectory(at: directory)
            result = Glibc.link(source.fileSystemPath, temporary)
        }
        guard result == 0 else {
            if [EXDEV, EPERM, EMLINK, ENOTSUP].contains(errno) { return false }
            throw FileSystemError.cannotWrite(path: destination, errno: errno)
        }
        let code = rename(temporary, destination) == 0 ? nil : errno
        // When the destination already is a link to the same file, rename does nothing and leaves the temporary name.
        unlink(temporary)
        if let code { throw FileSystemError.cannotWrite(path: destination, errno: code) }
        return true
    }

    /// A new temporary file name, `.tmp-<pid>-<random hex>`.
    package static func temporaryName() -> String {
        ".tmp-\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// Whether `name` is one of this writer's temporary file names.
    package static func isTemporaryName(_ name: String) -> Bool {
        name.wholeMatch(of: /\.tmp-[0-9]+-[0-9a-f]+/) != nil
    }

    /// Removes the temporary files that writers killed before renaming them left in `directory`
    /// (and its subfolders when `recursive`). Only for a folder no other process writes to meanwhile.
    package static func removeLeftovers(in directory: URL, recursive: Bool) {
        let options: FileManager.DirectoryEnumerationOptions = recursive ? [] : [.skipsSubdirectoryDescendants]
        let found = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil, options: options)
        while let url = found?.nextObject() as? URL {
            if isTemporaryName(url.lastPathComponent) {
                unlink(url.fileSystemPath)
            }
        }
    }

    /// Creates a new file exclusively, making its directory first if that is what is missing.
    private static func createFile(atPath path: String, in directory: URL,
                                   reportingAs destination: String) throws -> Int32 {
        var descriptor = openExclusively(path)
        if descriptor < 0 && errno == ENOENT {
            try createDirectory(at: directory)
            descriptor = openExclusively(path)
        }
        guard descriptor >= 0 else { throw FileSystemError.cannotWrite(path: destination, errno: errno) }
        return descriptor
    }

    /// `open(2)` of a file that must not exist yet, retried when a signal interrupts it.
    private static func openExclusively(_ path: String) -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        } while descriptor < 0 && errno == EINTR
        return descriptor
    }

    /// Writes every byte, resuming after partial writes and interruptions by signals; returns `errno` on failure.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count >= 0 {
                written += count
            } else if errno != EINTR {
                return errno
            }
        }
        return nil
    }

    /// `mkdir -p`: creates the directory and any missing parents; another process creating them meanwhile is fine.
    package static func createDirectory(at directory: URL) throws {
        let path = directory.fileSystemPath
        if mkdir(path, 0o777) == 0 { return }
        switch errno {
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw FileSystemError.cannotCreateDirectory(path: path, errno: ENOTDIR)
            }
        case ENOENT:
            try createDirectory(at: directory.deletingLastPathComponent())
            guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
                throw FileSystemError.cannotCreateDirectory(path: path, errno: errno)
            }
        case let code:
            throw FileSystemError.cannotCreateDirectory(path: path, errno: code)
        }
    }
}
