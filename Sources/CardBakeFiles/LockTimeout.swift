import Foundation

/// A folder stayed locked by another process for longer than the caller would wait.
public struct LockTimeout: Error, Sendable, CustomStringConvertible {
    /// The folder that stayed locked.
    public var directory: URL
    public var holder: LockHolder
    /// How long the caller waited.
    public var timeout: Duration

    public var description: String {
        "\(directory.path) is in use by \(holder); gave up after waiting \(String(format: "%g", timeout.seconds)) s for it"
    }
}
