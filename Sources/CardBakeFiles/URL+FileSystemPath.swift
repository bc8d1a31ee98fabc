import Foundation

extension URL {
    /// The absolute, lexically normalised path (``NormalPath``), handed to system calls and used as
    /// a stat-cache key.
    package var fileSystemPath: String {
        NormalPath.inCurrentDirectory(path)
    }
}

extension NormalPath {
    /// `path` made absolute against the current directory, then normalised.
    package static func inCurrentDirectory(_ path: String) -> String {
        of(path, relativeTo: FileManager.default.currentDirectoryPath)
    }
}
