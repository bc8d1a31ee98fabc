import Glibc

/// The parts of a file's `stat` that change when its contents may have changed.
struct FileStatus: Equatable, Sendable {
    /// Length in bytes.
    var size: Int64
    /// Last content change, in nanoseconds since 1970.
    var modificationTime: Int64
    var inode: UInt64
    /// Last change of contents or metadata, in nanoseconds since 1970; cannot be set by `utimensat`.
    var changeTime: Int64

    /// Examines the file at `path`, following symbolic links.
    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CacheError.cannotRead(path: path, errno: errno) }
        self.init(info)
    }

    /// Examines an open file; `path` is only for the error message.
    init(descriptor: Int32, path: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw CacheError.cannotRead(path: path, errno: errno) }
        self.init(info)
    }

    init(size: Int64, modificationTime: Int64, inode: UInt64, changeTime: Int64) {
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
