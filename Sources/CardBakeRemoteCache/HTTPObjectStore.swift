import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation

/// A ``RemoteObjectStore`` over HTTP: `GET` and `PUT` on `<base>/ac/<sha256>` and `<base>/cas/<sha256>`,
/// the layout bazel-remote, nginx with WebDAV and any HTTP server that accepts PUT serve.
///
/// At most `parallelTransfers` requests run at once. A connection error, a 5xx answer or a body
/// shorter or longer than its `Content-Length` is retried after a backoff (0.2 s, doubling); a
/// request that times out is not, since a slow server stays slow. 404 is a miss.
public final class HTTPObjectStore: RemoteObjectStore {
    public struct Limits: Sendable {
        /// For connecting, and for each request from start to the last byte.
        public var connectTimeout: Duration
        public var requestTimeout: Duration
        public var parallelTransfers: Int
        /// Attempts after the first.
        public var retries: Int

        public init(connectTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(30),
                    parallelTransfers: Int = 8, retries: Int = 2) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.parallelTransfers = parallelTransfers
            self.retries = retries
        }
    }

    public let address: RemoteCacheAddress
    public let limits: Limits
    private let client: HTTPTransport
    private let transfers: AsyncLimiter

    public init(address: RemoteCacheAddress, limits: Limits = Limits()) {
        self.address = address
        self.limits = limits
        client = HTTPTransport(limits: limits)
        transfers = AsyncLimiter(limit: limits.parallelTransfers)
    }

    public var displayName: String { address.displayName }

    public func get(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Data? {
        let answer = try await send(HTTPRequest(method: "GET", url: url(area, digest), body: nil))
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        default: throw failure("GET", area, digest, answer)
        }
    }

    public func put(_ data: Data, in area: RemoteArea, as digest: ContentDigest) async throws {
        let answer = try await send(HTTPRequest(method: "PUT", url: url(area, digest), body: data))
        guard (200..<300).contains(answer.status) else { throw failure("PUT", area, digest, answer) }
    }

    /// Stops the client; requests after this fail.
    public func shutDown() async {
        await client.shutDown()
    }

    private func url(_ area: RemoteArea, _ digest: ContentDigest) -> String {
        "\(address.base)/\(area.rawValue)/\(digest)"
    }

    private func failure(_ method: String, _ area: RemoteArea, _ digest: ContentDigest,
                         _ answer: HTTPAnswer) -> RemoteCacheFailure {
        RemoteCacheFailure("\(method) \(area.rawValue)/\(digest) answered HTTP \(answer.status)")
    }

    /// Sends `request`, retrying what may pass on a second try; the last answer or error.
    private func send(_ request: HTTPRequest) async throws -> HTTPAnswer {
        var request = request
        request.authorization = address.authorization
        var attempt = 0
        while true {
            do {
                let answer = try await transfers.run { try await client.send(request) }
                guard answer.status >= 500, attempt < limits.retries else { return answer }
            } catch let error as HTTPTransportError where error.isWorthRetrying && attempt < limits.retries {
                // retried below
            } catch let error as HTTPTransportError {
                throw RemoteCacheFailure("\(request.method) \(request.path): \(error)")
            }
            try await Task.sleep(for: .milliseconds(200) * (1 << attempt))
            attempt += 1
        }
    }
}

/// One request as the store makes it.
struct HTTPRequest: Sendable {
    var method: String
    var url: String
    var body: Data?
    var authorization: String?

    /// `cas/<sha256>`: the request's object, for messages (never the base URL, which may be secret).
    var path: String { url.split(separator: "/").suffix(2).joined(separator: "/") }
}

/// The status and body of an answer.
struct HTTPAnswer: Sendable {
    var status: Int
    var body: Data
}

/// Why a request got no answer.
enum HTTPTransportError: Error, CustomStringConvertible {
    /// No connection: refused, reset, closed early.
    case connection(String)
    /// The body's length differs from its `Content-Length`.
    case truncated(expected: Int, received: Int)
    /// No connection or no complete answer within the timeout.
    case timedOut(Duration)

    var isWorthRetrying: Bool {
        if case .timedOut = self { false } else { true }
    }

    var description: String {
        switch self {
        case .connection(let reason): "no connection (\(reason))"
        case let .truncated(expected, received): "the body has \(received.counting("byte")), its Content-Length says \(expected)"
        case .timedOut(let limit): "no answer within \(limit)"
        }
    }
}
