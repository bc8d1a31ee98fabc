import Foundation
import Glibc

/// A file for bytes a process writes once and reads back while it runs, so that they need not stay in
/// memory. Its name is removed as soon as it is made: it is gone when closed, or when the process dies.
///
/// Not thread-safe: keep it behind a lock.
package final class SpoolFile {
    private let descriptor: Int32
    /// Named in errors.
    private let directory: String
    /// The offset of the next append: the bytes written so far.
    private var size: Int64 = 0

    /// Creates the file in `directory`, which must exist. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    package init(in directory: URL) throws {
        self.directory = directory.fileSystemPath
        let path = directory.appendingPathComponent(AtomicFileWriter.temporaryName()).fileSystemPath
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystemError.cannotWrite(path: self.directory, errno: errno) }
        unlink(path)
    }

    deinit {
        close(descriptor)
    }

    /// Appends `bytes` and returns the offset they start at.
    /// Throws ``FileSystemError/cannotWrite(path:errno:)`` naming the folder.
    package func append(_ bytes: some DataProtocol) throws -> Int64 {
        let offset = size
        for region in bytes.regions {
            if let code = region.withUnsafeBytes({ AtomicFileWriter.writeAll($0, to: descriptor) }) {
                // The bytes already written are left unreferenced: the next append starts after them.
                size = Int64(lseek(descriptor, 0, SEEK_END))
                throw FileSystemError.cannotWrite(path: directory, errno: code)
            }
            size += Int64(region.count)
        }
        return offset
    }

    /// The `count` bytes at `offset`, which an earlier ``append(_:)`` wrote.
    /// Throws ``FileSystemError/cannotRead(path:errno:)`` naming the folder.
    package func read(count: Int, at offset: Int64) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let read = data.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if read > 0 {
                filled += read
            } else if read == 0 {
                throw FileSystemError.cannotRead(path: directory, errno: EIO)
            } else if errno != EINTR {
                throw FileSystemError.cannotRead(path: directory, errno: errno)
            }
        }
        return data
    }
}
