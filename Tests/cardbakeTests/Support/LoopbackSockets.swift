import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Sockets on 127.0.0.1 that stand for a remote cache that is down: a port that refuses connections,
/// and a server that accepts them and never answers.
enum LoopbackSockets {
    /// Runs `body` with a port that refuses connections: bound, so that no other test's server is
    /// given it meanwhile, but not listening.
    static func withRefusingPort<T>(_ body: (_ port: Int) throws -> T) throws -> T {
        let (socket, port) = try boundSocket()
        defer { close(socket) }
        return try body(port)
    }

    /// A TCP socket bound to a free port on 127.0.0.1, and the port.
    static func boundSocket() throws -> (socket: Int32, port: Int) {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = socket >= 0 && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A server on 127.0.0.1 that accepts connections, counts them, and never reads or answers.
final class SilentServer: Sendable {
    let port: Int
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])

    init() throws {
        (listener, port) = try LoopbackSockets.boundSocket()
        guard listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    close(listener)
                    return
                }
                connections.withLock { $0.append(connection) }
            }
        }.start()
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
