import SystemPackage

/// The one path normaliser: every path handed to a system call or used as a cache key goes
/// through it. Lexical only (swift-system's `lexicallyNormalize`): `.` and `..` resolved, repeated
/// and trailing slashes removed, symbolic links kept, the file system never touched.
package enum NormalPath {
    /// `path` made absolute against `directory` (itself absolute; asked for only when `path` is
    /// relative), then normalised.
    package static func of(_ path: String, relativeTo directory: @autoclosure () -> String) -> String {
        let absolute = path.hasPrefix("/") ? path : directory() + "/" + path
        if isNormal(absolute) { return absolute }
        var normal = FilePath(absolute)
        normal.lexicallyNormalize()
        return normal.string
    }

    /// Whether `path` is absolute with no empty, `.` or `..` component and no trailing slash: the
    /// common case, answered by one scan of the bytes, which is much cheaper than parsing.
    static func isNormal(_ path: String) -> Bool {
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
