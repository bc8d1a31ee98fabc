import Foundation

extension URL {
    /// The absolute, lexically normalised path, without a trailing slash, handed to system calls
    /// and used as a stat-cache key.
    var fileSystemPath: String {
        // Standardising a URL is slow next to a stat; most paths are already normal.
        let path = self.path
        return Self.isNormalised(path) ? path : standardizedFileURL.path
    }

    /// Whether `path` is absolute with no empty, `.` or `..` component and no trailing slash.
    private static func isNormalised(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.count > 1 else { return false }
        return !path.hasSuffix("/") && !path.hasSuffix("/.") && !path.hasSuffix("/..")
            && !path.contains("//") && !path.contains("/./") && !path.contains("/../")
    }
}
