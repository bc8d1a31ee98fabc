import Foundation

extension URL {
    /// The absolute, lexically normalised path, without a trailing slash, handed to system calls
    /// and used as a stat-cache key.
    package var fileSystemPath: String {
        // Standardising a URL is slow next to a stat; most paths are already normal.
        let path = self.path
        return Self.isNormalised(path) ? path : standardizedFileURL.path
    }

    /// Whether `path` is absolute with no empty, `.` or `..` component and no trailing slash.
    /// Scans the bytes: `String.contains` of a string goes through Foundation's slow search.
    private static func isNormalised(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let bytes = path.utf8
        guard bytes.first == slash, bytes.count > 1 else { return false }
        // The current component's length and how many of its bytes are dots: it is empty, `.` or
        // `..` when both are equal and at most 2.
        var (length, dots) = (0, 0)
        for byte in bytes.dropFirst() {
            if byte == slash {
                if length <= 2 && length == dots { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        return !(length <= 2 && length == dots)
    }
}
