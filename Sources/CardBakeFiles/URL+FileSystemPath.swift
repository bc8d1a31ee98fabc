import Foundation

extension URL {
    /// The absolute, lexically normalised path (``NormalPath``), handed to system calls and used as
    /// a stat-cache key.
    package var fileSystemPath: String {
        NormalPath.of(path, relativeTo: FileManager.default.currentDirectoryPath)
    }
}
