import CardBakeRemoteCache
import Foundation
import LoopbackSockets
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeManifest
import Testing
import Vips

/// Builds against a server that misbehaves in ways nginx cannot be made to: every card is still
/// rendered, and nothing the server sent is kept. The end-to-end tests (cardbakeTests) cover a real nginx.
@Suite("Builds with a misbehaving remote cache", .vips)
struct RemoteCacheBuildTests {
    static func build(against replies: [ScriptedHTTPServer.Reply]) async throws -> (BuildReport, BuildFixture, [String]) {
        let server = try ScriptedHTTPServer(replies)
        defer { server.stop() }
        let fixture = try BuilderTests.fixture()
        let warnings = Warnings()
        let store = HTTPObjectStore(address: try RemoteCacheAddress(parsing: server.url), limits: HTTPObjectStoreTests.limits)
        let report = try await HTTPObjectStoreTests.using(store) { store in
            try await fixture.build(remoteCache: RemoteCache(server: store), events: { event in
                if case .warning(let line) = event { warnings.add(line) }
            })
        }
        return (report, fixture, warnings.all)
    }

    /// A fixture of `count` small cards.
    static func fixture(cards count: Int) throws -> BuildFixture {
        var images: [String: VipsImage] = [:]
        for index in 0..<count {
            images[String(format: "card%02d", index)] = try TestImage.solid(
                width: 40 + index, height: 30, [UInt8(index * 6), 120, UInt8(255 - index * 6)])
        }
        let fixture = try BuildFixture(images: images)
        fixture.style = ["scales": [1]]
        return fixture
    }

    /// Builds `fixture` against `store`; the report and the warnings.
    static func build(_ fixture: BuildFixture, against store: HTTPObjectStore) async throws -> (BuildReport, [String]) {
        let warnings = Warnings()
        let report = try await HTTPObjectStoreTests.using(store) { store in
            try await fixture.build(remoteCache: RemoteCache(server: store), events: { event in
                if case .warning(let line) = event { warnings.add(line) }
            })
        }
        return (report, warnings.all)
    }

    /// The files under `folder` and their bytes.
    static func files(in folder: URL) throws -> [String: Data] {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        var files: [String: Data] = [:]
        for path in paths where !(folder.appendingPathComponent(path).hasDirectoryPath) {
            files[path] = try Data(contentsOf: folder.appendingPathComponent(path))
        }
        return files
    }

    @Test("A refused port, 40 cards: one request in all, one warning naming the server and the refusal")
    func refusedPort() async throws {
        let fixture = try Self.fixture(cards: 40)
        try await LoopbackSockets.withRefusingPort { port in
            let store = HTTPObjectStore(address: try RemoteCacheAddress(parsing: "http://127.0.0.1:\(port)/cache"),
                                        limits: HTTPObjectStoreTests.limits)
            let (report, warnings) = try await Self.build(fixture, against: store)
            #expect(report.count(.rendered) == 40 && report.count(.failed) == 0)
            #expect(store.requestsSent == 1)
            #expect(report.remoteCache?.failures == 1 && report.remoteCache?.disabled == true)
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.contains("http://127.0.0.1:\(port)/cache is unavailable") == true, "\(warnings)")
            #expect(warnings.first?.contains("connection refused") == true, "\(warnings)")
        }
    }

    @Test("A server that accepts and never answers, 16 cards: one request, one timeout in all, said once")
    func silentServer() async throws {
        let fixture = try Self.fixture(cards: 16)
        let server = try ScriptedHTTPServer([.hang])
        defer { server.stop() }
        let limits = HTTPObjectStore.Limits(connectTimeout: .seconds(1), requestTimeout: .seconds(1), parallelTransfers: 8)
        let store = HTTPObjectStore(address: try RemoteCacheAddress(parsing: server.url), limits: limits)
        let (report, warnings) = try await Self.build(fixture, against: store)
        #expect(report.count(.rendered) == 16 && report.count(.failed) == 0)
        #expect(server.requests.count == 1)
        #expect(store.requestsSent == 1)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("timed out after 1 s") == true, "\(warnings)")
    }

    @Test("A server that dies after its first requests: every card built as without a remote, one warning")
    func serverDies() async throws {
        let fixture = try Self.fixture(cards: 16)
        let server = try ScriptedHTTPServer([.answer(404)], stoppingAfter: 5)
        defer { server.stop() }
        let store = HTTPObjectStore(address: try RemoteCacheAddress(parsing: server.url), limits: HTTPObjectStoreTests.limits)
        let (report, warnings) = try await Self.build(fixture, against: store)
        #expect(report.count(.rendered) == 16 && report.count(.failed) == 0)
        #expect(server.requests.count == 5)
        #expect(report.remoteCache?.disabled == true)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("connection refused") == true, "\(warnings)")
        // The same catalog built without a remote cache, from scratch, writes the same files.
        let alone = fixture.folder.file("Alone")
        let without = try await fixture.build(useCache: false, output: alone)
        #expect(without.count(.rendered) == 16)
        let written = try Self.files(in: fixture.output)
        #expect(written.count > 16)
        #expect(written == (try Self.files(in: alone)))
    }

    @Test("A server whose bodies are shorter than their Content-Length: every card rendered, the server given up once")
    func wrongLength() async throws {
        let (report, fixture, warnings) = try await Self.build(against: [.answer(200, Data("abc".utf8), declaredLength: 4000)])
        #expect(report.count(.rendered) == 3 && report.count(.failed) == 0)
        #expect(fixture.manifest?.cards.count == 3)
        #expect(report.remoteCache?.disabled == true)
        #expect(report.remoteCache?.hits == 0)
        #expect(warnings.filter { $0.contains("not used for the rest of this build") }.count == 1)
    }

    @Test("A server answering 200 with garbage to everything: refused, every card rendered from scratch")
    func garbage() async throws {
        let (report, fixture, warnings) = try await Self.build(against: [.answer(200, Data(repeating: 0xAB, count: 300))])
        #expect(report.count(.rendered) == 3 && report.count(.failed) == 0)
        #expect((report.remoteCache?.refused ?? 0) >= 1)
        #expect(report.remoteCache?.hits == 0)
        #expect(warnings.contains { $0.contains("damaged or forged") })
        // Nothing forged reached the local cache: every blob there hashes to its name.
        let blobs = FileManager.default.enumerator(at: fixture.cache.appendingPathComponent("cas"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && $0.lastPathComponent.count == 64 } ?? []
        #expect(!blobs.isEmpty)
        for blob in blobs {
            #expect(ContentDigest.sha256(try Data(contentsOf: blob)).description == blob.lastPathComponent)
        }
    }
}
