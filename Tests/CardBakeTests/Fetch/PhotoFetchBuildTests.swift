import CardBakeFetch
import Foundation
import Synchronization
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeManifest
import Testing
import Vips

/// Builds whose photos come from a server that misbehaves in every way nginx cannot be made to: the
/// card of each bad answer fails with its URL and cause, every other card builds, the cache keeps
/// nothing of a bad answer, and once the server is fixed the next build makes every card.
@Suite("Photos from a misbehaving server", .vips)
struct PhotoFetchBuildTests {
    /// A photo the server sends when a path answers well.
    static func photo(_ seed: Int) throws -> Data {
        try TestImage.png(TestImage.solid(width: 48 + seed, height: 32, [UInt8(seed * 20 % 256), 90, 160]))
    }

    /// Each bad path, what it answers, and a phrase its card's failure must hold.
    static let html = Data("<!doctype html><html><body>Sign in to see this photo</body></html>".utf8)
    static func badPaths(serverURL: String) throws -> [(path: String, reply: ScriptedHTTPServer.Reply, phrase: String)] {
        let bomb = try Data(contentsOf: SourceImageTests.fixture("bomb.png"))
        return [
            ("/missing.png", .answer(404, Data("not found".utf8)), "HTTP 404"),
            ("/broken.png", .answer(500, Data("oops".utf8)), "HTTP 500"),
            ("/busy.png", .answer(429, Data(), headers: ["Retry-After": "1"]), "HTTP 429"),
            ("/loop.png", .answer(302, Data(), headers: ["Location": "\(serverURL)/loop.png"]), "more than 5 redirects"),
            ("/elsewhere.png", .answer(302, Data(), headers: ["Location": "file:///etc/passwd"]), "redirect to a scheme not allowed"),
            ("/huge.png", .answer(200, Data(repeating: 0x89, count: 300_000)), "over the limit of 200000 bytes"),
            ("/cut.png", .answer(200, try photo(9).prefix(60), declaredLength: try photo(9).count), "Content-Length says"),
            ("/silent.png", .hang, "timed out after 2 s"),
            ("/page.jpg", .answer(200, html, headers: ["Content-Type": "image/jpeg"]), "not an image"),
            ("/bomb.png", .answer(200, bomb, headers: ["Content-Type": "image/png"]), "over --max-pixels"),
        ]
    }

    static var settings: PhotoFetchSettings {
        var settings = PhotoFetchSettings()
        settings.maxDownloadBytes = 200_000
        settings.requestTimeout = .seconds(2)
        settings.connectTimeout = .seconds(2)
        settings.retries = 1
        settings.longestRetryWait = .seconds(1)
        return settings
    }

    @Test("Every bad answer fails its card only, leaves nothing in the cache, and builds once the server is fixed")
    func misbehavingServer() async throws {
        let fixed = Atomic(false)
        let routes = Mutex([String: ScriptedHTTPServer.Reply]())
        let good = try Self.photo(1)
        let server = try ScriptedHTTPServer { request in
            let path = String(request.path.split(separator: "?").first ?? "")
            if fixed.load(ordering: .relaxed) || path == "/good.png" {
                return .answer(200, good, headers: ["ETag": "\"good\"", "Content-Type": "image/png"])
            }
            return routes.withLock { $0[path] } ?? .answer(404)
        }
        defer { server.stop() }
        let bad = try Self.badPaths(serverURL: server.url)
        routes.withLock { routes in
            for (path, reply, _) in bad { routes[path] = reply }
        }

        let fixture = try BuildFixture(images: ["local": try TestImage.blocks(width: 80, height: 60)])
        fixture.style = ["scales": [1]]
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1:\(server.port)"], "maxAge": "1d"]]
        fixture.cards.append(["id": "good", "image": "\(server.url)/good.png?token=secret", "title": "Good", "description": "Fetched."])
        for (index, (path, _, _)) in bad.enumerated() {
            fixture.cards.append(["id": "bad\(index)", "image": "\(server.url)\(path)?token=secret", "title": "Bad \(index)",
                                  "description": "A bad answer."])
        }

        let report = try await fixture.build(photos: Self.settings)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.id, $0) })
        #expect(report.count(.rendered) == 2, "\(report.summary)")
        for (index, (path, _, phrase)) in bad.enumerated() {
            let failure = try #require(failures["bad\(index)"], "\(path) did not fail")
            #expect(failure.field == "image")
            let reason = failure.reason ?? ""
            #expect(reason.contains("\(server.url)\(path)?…"), "\(reason)")
            #expect(reason.contains(phrase), "\(path): \(reason)")
            #expect(!reason.contains("secret"), "\(reason)")
        }
        #expect(report.photos?.count(.fetched) == 1)

        // Nothing of a bad answer is kept: no record for its URL, no blob of its bytes, no scratch file.
        let store = try DiskArtifactStore(readingFrom: fixture.cache)
        for (index, (path, reply, _)) in bad.enumerated() {
            #expect(store.actionResult(for: PhotoRecord.key(for: fixture.cards[index + 2]["image"]!)) == nil, "\(path)")
            if case .answer(_, let body, _, _) = reply, !body.isEmpty {
                #expect(!store.containsBlob(ContentDigest.sha256(body)), "\(path)")
            }
        }
        let leftovers = (FileManager.default.subpaths(atPath: fixture.cache.path) ?? []).filter { $0.contains("fetch-") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        fixed.store(true, ordering: .relaxed)
        let requestsBefore = server.requests.count
        let second = try await fixture.build(photos: Self.settings)
        #expect(second.count(.failed) == 0, "\(second.failures)")
        #expect(second.count(.rendered) == bad.count)
        #expect(second.photos?.count(.fetched) == bad.count && second.photos?.count(.cached) == 1)
        // The good photo, fetched within maxAge, was not asked for again.
        #expect(server.requests[requestsBefore...].allSatisfy { !$0.path.hasPrefix("/good.png") })
    }

    @Test("Photos from one host download a few at a time, never more than connectionsPerHost at once")
    func connectionsPerHost() async throws {
        let photo = try Self.photo(2)
        let server = try ScriptedHTTPServer { _ in .after(seconds: 1, .answer(200, photo, headers: ["Content-Type": "image/png"])) }
        defer { server.stop() }
        let fixture = try BuildFixture(images: [:])
        fixture.style = ["scales": [1]]
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1:\(server.port)"], "maxAge": "1d"]]
        for index in 0..<12 {
            fixture.cards.append(["id": "photo\(index)", "image": "\(server.url)/photo.png?n=\(index)", "title": "Photo \(index)",
                                  "description": "One of twelve."])
        }
        var settings = Self.settings
        settings.connectionsPerHost = 3

        let report = try await fixture.build(photos: settings)

        #expect(report.count(.rendered) == 12, "\(report.failures)")
        #expect(server.requests.count == 12)
        #expect((2...3).contains(server.mostConnectionsAtOnce), "downloads overlap, up to the limit: \(server.mostConnectionsAtOnce)")
    }

    @Test("A 429 with Retry-After is retried, and the photo fetched")
    func retryAfter() async throws {
        let answered = Atomic(0)
        let photo = try Self.photo(3)
        let server = try ScriptedHTTPServer { _ in
            answered.add(1, ordering: .relaxed).oldValue == 0
                ? .answer(429, Data(), headers: ["Retry-After": "1"]) : .answer(200, photo)
        }
        defer { server.stop() }
        let fixture = try BuildFixture(images: [:])
        fixture.style = ["scales": [1]]
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1"]]]
        fixture.cards = [["id": "busy", "image": "\(server.url)/busy.png", "title": "Busy", "description": "Retried."]]
        let report = try await fixture.build(photos: Self.settings)
        #expect(report.count(.rendered) == 1 && report.count(.failed) == 0, "\(report.failures)")
        #expect(server.requests.count == 2)
    }

    @Test("A server down after the first build: the cached copy is used, with one warning")
    func serverDown() async throws {
        let photo = try Self.photo(4)
        let down = Atomic(false)
        let server = try ScriptedHTTPServer { _ in
            down.load(ordering: .relaxed) ? .answer(503) : .answer(200, photo, headers: ["ETag": "\"v1\""])
        }
        defer { server.stop() }
        let fixture = try BuildFixture(images: [:])
        fixture.style = ["scales": [1]]
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1"]]]
        fixture.cards = ["a", "b"].map { ["id": $0, "image": "\(server.url)/\($0).png", "title": $0, "description": "Down."] }
        _ = try await fixture.build(photos: Self.settings)
        down.store(true, ordering: .relaxed)
        var refresh = Self.settings
        refresh.mode = .refresh
        let warnings = Warnings()
        let report = try await fixture.build(photos: refresh) { event in
            if case .warning(let line) = event { warnings.add(line) }
        }
        #expect(report.count(.failed) == 0 && report.count(.cached) == 2, "\(report.failures)")
        #expect(report.photos?.count(.stale) == 2)
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.contains("HTTP 503") == true, "\(warnings.all)")
    }

    @Test("Within maxAge a no-op takes the kept outline, parsing nothing and sending no request; a build or check that must parse takes the photos from the cache; --refresh revalidates")
    func outlineWithinMaxAge() async throws {
        let photo = try Self.photo(5)
        let server = try ScriptedHTTPServer { request in
            request.headers["if-none-match"] == "\"v1\"" ? .answer(304) : .answer(200, photo, headers: ["ETag": "\"v1\""])
        }
        defer { server.stop() }
        let fixture = try BuildFixture(images: ["local": try TestImage.blocks(width: 80, height: 60)])
        fixture.style = ["scales": [1]]
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1"], "maxAge": "1d"]]
        fixture.cards += ["a", "b"].map { ["id": $0, "image": "\(server.url)/\($0).png", "title": $0, "description": "Kept."] }
        #expect(try await fixture.build(photos: Self.settings).count(.rendered) == 3)
        #expect(server.requests.count == 2)

        // A no-op: the outline stands for the catalog, and the report still says where each photo came from.
        #expect(try CatalogOutlineTests.reading(fixture).parses == 0)
        let noOp = try await fixture.build(photos: Self.settings)
        #expect(noOp.count(.cached) == 3 && server.requests.count == 2)
        #expect(noOp.photos?.cards.map(\.id) == ["a", "b"] && noOp.photos?.count(.cached) == 2)

        // A bitmap removed: the outline is not enough, so the catalog is parsed and its photos taken
        // from the cache, with no request; the outline is kept again.
        let bitmap = fixture.output.appendingPathComponent(try #require(fixture.manifest?.cards[1].images["1x"]?.file))
        try FileManager.default.removeItem(at: bitmap)
        #expect(try await Checker(request: CatalogOutlineTests.request(fixture)).run().map(\.cardID) == ["a"])
        let mended = try await fixture.build(photos: Self.settings)
        #expect(mended.count(.failed) == 0 && mended.photos?.count(.cached) == 2, "\(mended.failures)")
        #expect(FileManager.default.fileExists(atPath: bitmap.path))
        #expect(server.requests.count == 2)
        #expect(try CatalogOutlineTests.reading(fixture).parses == 0)

        // --refresh passes the outline by and revalidates every photo.
        var refresh = Self.settings
        refresh.mode = .refresh
        let refreshed = try await fixture.build(photos: refresh)
        #expect(refreshed.photos?.count(.revalidated) == 2 && server.requests.count == 4)

        // Photos due at once (maxAge 0): revalidated every build, and no outline stands for the catalog.
        fixture.members = ["remoteImages": ["allow": ["127.0.0.1"], "maxAge": "0"]]
        #expect(try await fixture.build(photos: Self.settings).photos?.count(.revalidated) == 2)
        #expect(try CatalogOutlineTests.reading(fixture).parses == 1)
        #expect(try await fixture.build(photos: Self.settings).photos?.count(.revalidated) == 2)
        #expect(server.requests.count == 8)
    }
}
