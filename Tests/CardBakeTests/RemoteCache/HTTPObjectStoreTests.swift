import CardBakeCache
import CardBakeManifest
import CardBakeRemoteCache
import Foundation
import LoopbackSockets
import Testing

@Suite("HTTP remote cache store")
struct HTTPObjectStoreTests {
    static let digest = ContentDigest.sha256(Data("object".utf8))
    /// A request timeout far longer than a scripted answer takes on a busy machine, so that only the
    /// server's script decides each case (the case of a server that never answers sets its own, short).
    /// Connecting on loopback needs no user-space answer.
    static let limits = HTTPObjectStore.Limits(connectTimeout: .seconds(2), requestTimeout: .seconds(30),
                                               parallelTransfers: 4, retries: 2)

    /// A store on `server`, under `/cache`; pass it to ``using(_:_:)``, which shuts it down (its threads end).
    static func store(_ server: ScriptedHTTPServer, path: String = "/cache",
                      limits: HTTPObjectStore.Limits = limits) throws -> HTTPObjectStore {
        HTTPObjectStore(address: try RemoteCacheAddress(parsing: server.url + path), limits: limits)
    }

    /// Runs `body` with `store`, then shuts the store down.
    static func using<T: Sendable>(_ store: HTTPObjectStore, _ body: (HTTPObjectStore) async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await body(store)) } catch { result = .failure(error) }
        await store.shutDown()
        return try result.get()
    }

    @Test("GET and PUT go to <base>/cas/<sha256> and <base>/ac/<sha256>; 404 is a miss")
    func layout() async throws {
        let server = try ScriptedHTTPServer([.answer(201), .answer(200, Data("object".utf8)), .answer(404)])
        defer { server.stop() }
        try await Self.using(try Self.store(server)) { store in
            try await store.put(Data("object".utf8), in: .content, as: Self.digest)
            #expect(try await store.get(.content, Self.digest) == Data("object".utf8))
            #expect(try await store.get(.actionCache, Self.digest) == nil)
        }
        let requests = server.requests
        #expect(requests.map(\.method) == ["PUT", "GET", "GET"])
        #expect(requests.map(\.path) == ["/cache/cas/\(Self.digest)", "/cache/cas/\(Self.digest)", "/cache/ac/\(Self.digest)"])
        #expect(requests[0].body == Data("object".utf8))
    }

    @Test("Bodies of megabytes go up and come down whole, over several reads and writes of libcurl's buffers")
    func largeBodies() async throws {
        let large = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        let server = try ScriptedHTTPServer([.answer(201), .answer(200, large)])
        defer { server.stop() }
        let fetched = try await Self.using(try Self.store(server)) { store in
            try await store.put(large, in: .content, as: Self.digest)
            return try await store.get(.content, Self.digest)
        }
        #expect(server.requests.first?.body == large)
        #expect(server.requests.first?.headers["content-length"] == "\(large.count)")
        #expect(server.requests.first?.headers["expect"] == nil, "no 100-continue round trip")
        #expect(fetched == large)
    }

    @Test("A 5xx answer is retried, and the answer after it used")
    func retriesServerErrors() async throws {
        let server = try ScriptedHTTPServer([.answer(503), .answer(500), .answer(200, Data("object".utf8))])
        defer { server.stop() }
        let body = try await Self.using(try Self.store(server)) { try await $0.get(.content, Self.digest) }
        #expect(body == Data("object".utf8))
        #expect(server.requests.count == 3)
    }

    @Test("A server that keeps answering 500 fails after the retries, saying so")
    func givesUpOnServerErrors() async throws {
        let server = try ScriptedHTTPServer([.answer(500)])
        defer { server.stop() }
        let error = await #expect(throws: RemoteCacheFailure.self) { try await Self.using(try Self.store(server)) { try await $0.get(.content, Self.digest) } }
        #expect(error?.description.contains("HTTP 500") == true)
        #expect(server.requests.count == 3)
    }

    @Test("A body shorter than its Content-Length is an error, retried")
    func wrongLength() async throws {
        let server = try ScriptedHTTPServer([.answer(200, Data("obj".utf8), declaredLength: 600)])
        defer { server.stop() }
        await #expect(throws: RemoteCacheFailure.self) { try await Self.using(try Self.store(server)) { try await $0.get(.content, Self.digest) } }
        #expect(server.requests.count == 3)
    }

    @Test("A server that never answers times out, without retrying")
    func hangs() async throws {
        let server = try ScriptedHTTPServer([.hang])
        defer { server.stop() }
        let failure = await #expect(throws: RemoteCacheFailure.self) {
            var limits = Self.limits
            limits.requestTimeout = .seconds(1)
            return try await Self.using(try Self.store(server, limits: limits)) { try await $0.get(.content, Self.digest) }
        }
        #expect(failure?.description.contains("timed out after 1 s") == true, "\(String(describing: failure))")
        #expect(server.requests.count == 1)
    }

    @Test("A port where nothing listens is a connection error")
    func nothingListening() async throws {
        try await LoopbackSockets.withRefusingPort { port in
            let store = HTTPObjectStore(address: try RemoteCacheAddress(parsing: "http://127.0.0.1:\(port)/cache"),
                                        limits: Self.limits)
            let failure = await #expect(throws: RemoteCacheFailure.self) {
                try await Self.using(store) { try await $0.get(.content, Self.digest) }
            }
            #expect(failure?.description.contains("connection refused") == true, "\(String(describing: failure))")
        }
    }

    @Test("Credentials: the Authorization value as given, or Basic from the URL; never in displayName or errors")
    func credentials() async throws {
        let server = try ScriptedHTTPServer([.answer(401)])
        defer { server.stop() }
        let header = try HTTPObjectStore(address: RemoteCacheAddress(parsing: server.url, authorization: "Bearer s3cret"),
                                         limits: Self.limits)
        _ = try? await Self.using(header) { try await $0.get(.content, Self.digest) }
        let inURL = try HTTPObjectStore(
            address: RemoteCacheAddress(parsing: "http://alice:pa%40ss@127.0.0.1:\(server.port)/c"), limits: Self.limits)
        let error = await #expect(throws: RemoteCacheFailure.self) { try await Self.using(inURL) { try await $0.get(.content, Self.digest) } }
        #expect(server.requests.map { $0.headers["authorization"] } == [
            "Bearer s3cret", "Basic " + Data("alice:pa@ss".utf8).base64EncodedString(),
        ])
        #expect(inURL.displayName == "http://***@127.0.0.1:\(server.port)/c")
        #expect(error.map { !"\($0)".contains("pa") && !"\($0)".contains("alice") } == true)
    }

    @Test("Malformed addresses are refused without echoing credentials")
    func malformed() throws {
        for text in ["ftp://host/x", "not a url", "http://", "http://host/x?y=1"] {
            #expect(throws: RemoteCacheAddressError.self) { try RemoteCacheAddress(parsing: text) }
        }
        let error = #expect(throws: RemoteCacheAddressError.self) {
            try RemoteCacheAddress(parsing: "http://bob:hunter2@host/", allowingCredentials: false)
        }
        #expect(error.map { !"\($0)".contains("hunter2") } == true)
        let weird = #expect(throws: RemoteCacheAddressError.self) { try RemoteCacheAddress(parsing: "gopher://bob:hunter2@host/") }
        #expect(weird.map { !"\($0)".contains("hunter2") } == true)
    }
}
