import Glibc

/// A file or folder that could not be read, written, made or locked, naming the path and the cause.
///
/// Reads from a cache store never throw this: an unreadable or damaged entry is a miss.
public enum FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be opened, examined or read; `errno` is the system's error code.
    case cannotRead(path: String, errno: Int32)
    /// A file could not be written or moved into place; `errno` is the system's error code.
    case cannotWrite(path: String, errno: Int32)
    /// A missing directory could not be created; `errno` is the system's error code.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// A folder could not be opened or locked against other cardbake processes; `errno` is the system's error code.
    case cannotLock(path: String, errno: Int32)

    /// A file could not be written or its folder made: the disk is full, a write limit was reached,
    /// permissions forbid it. No card is at fault, so a build stops rather than failing cards.
    public var isWriteFailure: Bool {
        switch self {
        case .cannotWrite, .cannotCreateDirectory: true
        case .cannotRead, .cannotLock: false
        }
    }

    public var description: String {
        switch self {
        case let .cannotRead(path, code):
            "Could not read \"\(path)\": \(Self.text(of: code))."
        case let .cannotWrite(path, code):
            "Could not write \"\(path)\": \(Self.text(of: code))."
        case let .cannotCreateDirectory(path, code):
            "Could not create the directory \"\(path)\": \(Self.text(of: code))."
        case let .cannotLock(path, code):
            "Could not lock the folder \"\(path)\" against other cardbake processes: \(Self.text(of: code))."
        }
    }

    /// The system's text for an `errno` value, e.g. "No such file or directory".
    package static func text(of code: Int32) -> String {
        String(cString: strerror(code))
    }
}
