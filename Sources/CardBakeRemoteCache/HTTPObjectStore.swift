import CardBakeCache
import CardBakeFiles
import CardBakeHTTP
import CardBakeManifest
import Foundation
import Synchronization

/// A ``RemoteObjectStore`` over HTTP: `GET` and `PUT` on `<base>/ac/<sha256>` and `<base>/cas/<sha256>`,
/// the layout bazel-remote, nginx with WebDAV and any HTTP server that accepts PUT serve.
///
/// At most `parallelTransfers` requests run at once. A connection the server closed, a 5xx answer or
/// a body shorter or longer than its `Content-Length` is retried after a backoff (0.2 s, doubling).
/// A refused connection, an unknown host or a timeout is not: the server is down or slow and stays
/// so. 404 is a miss.
///
/// An outage costs one request: until the server has answered once, requests go one at a time; once
/// one finds it unreachable (``RemoteCacheFailure/isOutage``), every later request fails at once
/// with that failure, without touching the network.
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
    private let reachability = Reachability()
    private let sent = Atomic(0)

    public init(address: RemoteCacheAddress, limits: Limits = Limits()) {
        self.address = address
        self.limits = limits
        client = HTTPTransport(connectTimeout: limits.connectTimeout, requestTimeout: limits.requestTimeout,
                               parallelTransfers: limits.parallelTransfers, threadName: "cardbake remote cache")
        transfers = AsyncLimiter(limit: limits.parallelTransfers)
    }

    public var displayName: String { address.displayName }

    /// The requests handed to the network so far, retries included.
    public var requestsSent: Int { sent.load(ordering: .relaxed) }

    public func get(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Data? {
        let answer = try await send(HTTPRequest(method: "GET", url: url(area, digest), body: nil))
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        default: throw failure("GET", area, digest, answer)
        }
    }

    public func contains(_ area: RemoteArea, _ digest: ContentDigest) async throws -> Bool {
        let answer = try await send(HTTPRequest(method: "HEAD", url: url(area, digest), body: nil))
        switch answer.status {
        case 200: return true
        case 404: return false
        default: throw failure("HEAD", area, digest, answer)
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
        let probing = try await reachability.admit()
        do {
            let answer = try await sendRetrying(request)
            if probing { reachability.settle(reachable: true) }
            return answer
        } catch let failure as RemoteCacheFailure {
            if failure.isOutage {
                reachability.settle(unreachable: failure)
            } else if probing {
                reachability.settle(reachable: true)
            }
            throw failure
        } catch {
            if probing { reachability.settle(reachable: nil) }
            throw error
        }
    }

    /// `cas/<sha256>`: the request's object, for messages (never the base URL, which may be secret).
    private static func object(of request: HTTPRequest) -> String {
        request.url.split(separator: "/").suffix(2).joined(separator: "/")
    }

    private func sendRetrying(_ request: HTTPRequest) async throws -> HTTPAnswer {
        var request = request
        request.authorization = address.authorization
        var attempt = 0
        while true {
            do {
                let answer = try await transfers.run {
                    // One that waited for its turn while another found the server down does not try.
                    if let outage = reachability.outage { throw outage }
                    sent.add(1, ordering: .relaxed)
                    return try await client.send(request)
                }
                guard answer.status >= 500, attempt < limits.retries else { return answer }
            } catch let error as HTTPTransportError where error.isWorthRetrying && attempt < limits.retries {
                // retried below
            } catch let error as HTTPTransportError {
                throw RemoteCacheFailure("\(request.method) \(Self.object(of: request)): \(error)", isOutage: error.isOutage)
            }
            try await Task.sleep(for: .milliseconds(200) * (1 << attempt))
            attempt += 1
        }
    }
}

/// Whether the server has been reached: until it has answered once, one request at a time (the
/// others wait for its outcome); after a request found it unreachable, none.
private final class Reachability: Sendable {
    private enum State {
        /// Nothing answered yet; `probing` when a request is under way, with the requests waiting for it.
        case unknown(probing: Bool, waiting: [CheckedContinuation<Admission, Never>])
        case reachable
        case unreachable(RemoteCacheFailure)
    }

    private enum Admission {
        case probe, go, refused(RemoteCacheFailure)
    }

    private let state = Mutex(State.unknown(probing: false, waiting: []))

    /// The failure that found the server unreachable, if one did.
    var outage: RemoteCacheFailure? {
        state.withLock { if case .unreachable(let failure) = $0 { failure } else { nil } }
    }

    /// Waits for a request's turn: true for the one request that finds out whether the server answers.
    /// - Throws: the failure that found the server unreachable.
    func admit() async throws -> Bool {
        let admission = await withCheckedContinuation { (turn: CheckedContinuation<Admission, Never>) in
            let now = state.withLock { state -> Admission? in
                switch state {
                case .reachable: return .go
                case .unreachable(let failure): return .refused(failure)
                case .unknown(probing: false, let waiting):
                    state = .unknown(probing: true, waiting: waiting)
                    return .probe
                case .unknown(probing: true, var waiting):
                    waiting.append(turn)
                    state = .unknown(probing: true, waiting: waiting)
                    return nil
                }
            }
            if let now { turn.resume(returning: now) }
        }
        switch admission {
        case .probe: return true
        case .go: return false
        case .refused(let failure): throw failure
        }
    }

    /// What a request found: the server answered (true), or nothing known (nil, as for a request
    /// cancelled): the next request waiting finds out instead.
    func settle(reachable: Bool?) {
        let (turns, admission) = state.withLock { state -> ([CheckedContinuation<Admission, Never>], Admission?) in
            guard case .unknown(_, var waiting) = state else { return ([], nil) }
            if reachable == true {
                state = .reachable
                return (waiting, .go)
            }
            guard !waiting.isEmpty else {
                state = .unknown(probing: false, waiting: [])
                return ([], nil)
            }
            let next = waiting.removeFirst()
            state = .unknown(probing: true, waiting: waiting)
            return ([next], .probe)
        }
        if let admission { turns.forEach { $0.resume(returning: admission) } }
    }

    /// A request found the server unreachable: the waiting requests, and every later one, fail with `failure`.
    func settle(unreachable failure: RemoteCacheFailure) {
        let waiting = state.withLock { state -> [CheckedContinuation<Admission, Never>] in
            defer { state = .unreachable(failure) }
            if case .unknown(_, let waiting) = state { return waiting }
            return []
        }
        waiting.forEach { $0.resume(returning: .refused(failure)) }
    }
}
