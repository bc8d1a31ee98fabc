import Glibc

/// The parts of a file's `stat` that change when its contents may have changed.
package struct FileStatus: Equatable, Sendable {
    /// Length in bytes.
    package var size: Int64
    /// Last content change, in nanoseconds since 1970.
    package var modificationTime: Int64
    package var inode: UInt64
    /// Last change of contents or metadata, in nanoseconds since 1970; cannot be set by `utimensat`.
    package var changeTime: Int64

    /// Examines the file at `path`, following symbolic links.
    package init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileSystemError.cannotRead(path: path, errno: errno) }
        self.init(info)
    }

    /// Examines an open file; `path` is only for the error message.
    package init(descriptor: Int32, path: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystemError.cannotRead(path: path, errno: errno) }
        self.init(info)
    }

    package init(size: Int64, modificationTime: Int64, inode: UInt64, changeTime: Int64) {
        self.size = size
        self.modificationTime = modificationTime
        self.inode = inode
        self.changeTime = changeTime
    }

    private init(_ info: stat) {
        self.init(size: Int64(info.st_size),
                  modificationTime: info.st_mtim.nanoseconds,
                  inode: UInt64(info.st_ino),
                  changeTime: info.st_ctim.nanoseconds)
    }
}
