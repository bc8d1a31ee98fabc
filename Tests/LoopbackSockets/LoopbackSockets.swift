import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// TCP sockets on 127.0.0.1 for the tests of a remote cache: a port that refuses connections, and the
/// listening socket of a test server.
public enum LoopbackSockets {
    /// Runs `body` with a port that refuses connections: bound, so that no other test's server is
    /// given it meanwhile, but not listening.
    public static func withRefusingPort<T>(_ body: (_ port: Int) async throws -> T) async throws -> T {
        let (socket, port) = try boundSocket()
        defer { close(socket) }
        return try await body(port)
    }

    /// A socket listening on a free port, and the port; the caller closes it.
    public static func listeningSocket() throws -> (socket: Int32, port: Int) {
        let (socket, port) = try boundSocket()
        guard listen(socket, 64) == 0 else {
            close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (socket, port)
    }

    /// Accepts connections on `listener` on a thread of its own, handing each to `handle`, until the
    /// listener is shut down (`shutdown(listener, SHUT_RDWR)`); that thread then closes it: closed
    /// elsewhere, its descriptor could be given to another test's new server before the thread's next
    /// `accept`, which would then take that server's connections.
    public static func accept(on listener: Int32, _ handle: @escaping @Sendable (_ connection: Int32) -> Void) {
        Thread {
            while true {
                let connection = Glibc.accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    close(listener)
                    return
                }
                handle(connection)
            }
        }.start()
    }

    /// A TCP socket bound to a free port, and the port.
    private static func boundSocket() throws -> (socket: Int32, port: Int) {
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
