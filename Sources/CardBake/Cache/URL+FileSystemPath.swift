import Foundation

extension URL {
    /// The absolute, lexically normalised path, without a trailing slash, handed to system calls
    /// and used as a stat-cache key.
    var fileSystemPath: String {
        standardizedFileURL.path
    }
}
