import Foundation
import LoopbackSockets
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A server on 127.0.0.1 that accepts connections, counts them, and never reads or answers.
final class SilentServer: Sendable {
    let port: Int
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])

    init() throws {
        (listener, port) = try LoopbackSockets.listeningSocket()
        LoopbackSockets.accept(on: listener) { [self] connection in
            connections.withLock { $0.append(connection) }
        }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The connections accepted so far.
    var accepted: Int { connections.withLock { $0.count } }

    /// Stops accepting and closes the connections (the listening socket is closed by its thread).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        connections.withLock { $0.forEach { close($0) } }
    }
}
