import Foundation
import LoopbackSockets
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the HTTP clients' unit tests: answers each request with
/// the next scripted reply (the last one repeats), or with what a route gives for its path, records
/// what it was asked, and closes each connection after its reply. The end-to-end tests use a real
/// nginx instead.
final class ScriptedHTTPServer: Sendable {
    enum Reply: Sendable {
        /// A status and body; `declaredLength` overrides the `Content-Length` sent; `headers` are
        /// sent as they are (`Location`, `Retry-After`, `Content-Type`).
        case answer(Int, Data = Data(), declaredLength: Int? = nil, headers: [String: String] = [:])
        /// Reads the request and never answers.
        case hang
        /// `reply` after `seconds`, the connection held open meanwhile (a slow server).
        indirect case after(seconds: Double, Reply)
    }

    /// A request as received: method, path, headers (names lowercased) and body.
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: Data
    }

    let port: Int
    private let listener: Int32
    private let state: Mutex<(replies: [Reply], requests: [Request])>
    /// Chooses each request's reply, instead of `replies`.
    private let route: (@Sendable (Request) -> Reply)?
    /// The server stops (``stop()``) once it has received this many requests, as one that dies would.
    private let requestLimit: Int?
    /// Connections being served now, and the most there have been at once.
    private let connections = Mutex((open: 0, most: 0))

    /// - Parameter stoppingAfter: the number of requests after which the server stops listening
    ///   (those already connected are answered); later connections are refused.
    init(_ replies: [Reply], stoppingAfter requestLimit: Int? = nil) throws {
        state = Mutex((replies, []))
        self.requestLimit = requestLimit
        route = nil
        (listener, port) = try LoopbackSockets.listeningSocket()
        LoopbackSockets.accept(on: listener) { [self] connection in
            Thread { [self] in serve(connection) }.start()
        }
    }

    /// A server that answers each request with `route`'s reply for it.
    init(route: @escaping @Sendable (Request) -> Reply) throws {
        state = Mutex(([], []))
        requestLimit = nil
        self.route = route
        (listener, port) = try LoopbackSockets.listeningSocket()
        LoopbackSockets.accept(on: listener) { [self] connection in
            Thread { [self] in serve(connection) }.start()
        }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    var requests: [Request] { state.withLock { $0.requests } }

    /// The most connections the server has served at once.
    var mostConnectionsAtOnce: Int { connections.withLock { $0.most } }

    /// Stops accepting; connections open stay as they are (``LoopbackSockets/accept(on:_:)`` closes
    /// the listening socket).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ connection: Int32) {
        connections.withLock { connections in
            connections.open += 1
            connections.most = max(connections.most, connections.open)
        }
        defer { connections.withLock { $0.open -= 1 } }
        guard let request = read(from: connection) else {
            close(connection)
            return
        }
        let answer = state.withLock { state -> (reply: Reply, stops: Bool)? in
            // One connected before the server stopped is dropped unanswered, as by a server that died.
            if let requestLimit, state.requests.count >= requestLimit { return nil }
            state.requests.append(request)
            if let route { return (route(request), false) }
            return (state.replies.count > 1 ? state.replies.removeFirst() : state.replies[0],
                    state.requests.count == requestLimit)
        }
        guard let (reply, stops) = answer else {
            close(connection)
            return
        }
        if stops { stop() }
        write(reply, to: request, on: connection)
        close(connection)
    }

    private func write(_ reply: Reply, to request: Request, on connection: Int32) {
        switch reply {
        case .hang:
            Thread.sleep(forTimeInterval: 120)
        case let .after(seconds, reply):
            Thread.sleep(forTimeInterval: seconds)
            write(reply, to: request, on: connection)
        case let .answer(status, body, declaredLength, headers):
            let head = "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(declaredLength ?? body.count)\r\n"
                + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "Connection: close\r\n\r\n"
            let bytes = Data(head.utf8) + (request.method == "HEAD" ? Data() : body)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    private func read(from connection: Int32) -> Request? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        func more() -> Bool {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[..<count])
            return true
        }
        let separator = Data("\r\n\r\n".utf8)
        while received.range(of: separator) == nil {
            guard more() else { return nil }
        }
        let headEnd = received.range(of: separator)!
        let lines = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines[0].split(separator: " ")
        guard start.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if headers["expect"]?.lowercased() == "100-continue" {
            let goOn = Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = goOn.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        while received.count - headEnd.upperBound < length {
            guard more() else { return nil }
        }
        return Request(method: String(start[0]), path: String(start[1]), headers: headers,
                       body: Data(received[headEnd.upperBound...].prefix(length)))
    }
}
