import CVips
import Foundation

/// A libvips call failed; `message` is what libvips wrote to its error buffer.
public struct VipsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation that failed, e.g. `thumbnail`.
    public var operation: String
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    /// Reads and clears libvips' process-global error buffer; call only as ``VipsCall`` does, while no
    /// other thread runs libvips, so the messages are those of the call that just failed.
    static func fromBuffer(operation: String) -> VipsError {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let message = lines.filter { !$0.isEmpty }.joined(separator: "; ")
        return VipsError(operation: operation, message: message.isEmpty ? "unknown libvips error" : message)
    }

    public var description: String { "\(operation) failed: \(message)" }
}
