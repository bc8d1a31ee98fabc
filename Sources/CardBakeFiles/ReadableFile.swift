import Foundation
import Glibc

/// A file opened for reading and closed when the value goes away.
///
/// Every failure is a ``FileSystemError/cannotRead(path:errno:)`` naming the file.
package struct ReadableFile: ~Copyable {
    package let path: String
    /// For readers that use `pread`, which leaves the offset ``read(into:)`` reads from alone.
    package let descriptor: Int32

    package init(path: String) throws {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw FileSystemError.cannotRead(path: path, errno: errno) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The open file's status, which stays that of the file read even if the path is replaced meanwhile.
    package func status() throws -> FileStatus {
        try FileStatus(descriptor: descriptor, path: path)
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw FileSystemError.cannotRead(path: path, errno: errno) }
        }
    }

    /// All remaining bytes, read into a buffer sized from the file's length.
    package func readToEnd() throws -> Data {
        // One byte more than the length lets the end of an unchanged file be seen without growing.
        var data = Data(count: Int(try status().size) + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count *= 2 }
            let count = try data.withUnsafeMutableBytes { bytes in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
            }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return data
    }
}
