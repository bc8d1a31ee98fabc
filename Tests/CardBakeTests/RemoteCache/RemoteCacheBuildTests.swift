import CardBakeRemoteCache
import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeManifest
import Testing

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
