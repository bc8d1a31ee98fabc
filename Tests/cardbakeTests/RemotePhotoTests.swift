import CardBake
import Foundation
import Testing

/// Photos given as URLs, served by a real nginx on loopback (static files, with its `ETag` and
/// `Last-Modified`): fetched once, no request within `maxAge`, a `304` after it, builds offline from
/// the cache, and `--offline` failing only the card whose photo was never fetched. nginx's access
/// log counts the requests.
@Suite("Photos from URLs against nginx", .serialized)
struct RemotePhotoTests {
    static let photos = ["coffee.jpg", "rocket.jpg", "coins.jpg"]

    /// Writes a catalog of one card per photo in `photos`, fetched from `server`.
    static func writeCatalog(in sandbox: Sandbox, server: NginxServer, photos: [String] = photos,
                             maxAge: String = "1d") throws {
        let cards: [[String: Any]] = photos.enumerated().map { index, photo in
            ["id": "card\(index)", "image": "\(server.url)/photos/\(photo)", "title": "Photo \(index)",
             "description": "From nginx."]
        }
        let json: [String: Any] = ["version": 1, "style": ["scales": [1]], "cards": cards,
                                   "remoteImages": ["allow": ["127.0.0.1/photos/"], "maxAge": maxAge]]
        try sandbox.write(JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]),
                          to: "catalog.json")
    }

    /// nginx's requests for photos so far, and their statuses.
    static func photoRequests(_ server: NginxServer) -> [(path: String, status: Int)] {
        server.accessLog().compactMap { line in
            // 127.0.0.1 - - [date] "GET /photos/coffee.jpg HTTP/1.1" 200 …
            let parts = line.split(separator: "\"")
            guard parts.count >= 3 else { return nil }
            let request = parts[1].split(separator: " ")
            guard request.count >= 2, let status = Int(parts[2].split(separator: " ").first ?? "") else { return nil }
            return (String(request[1]), status)
        }
    }

    static func build(_ sandbox: Sandbox, _ extra: [String] = []) throws -> RunResult {
        try sandbox.run(["build", "catalog.json", "-o", "out", "--cache-dir", "cache", "--report", "report.json"] + extra)
    }

    static func report(_ sandbox: Sandbox) throws -> BuildReport {
        try JSONDecoder().decode(BuildReport.self, from: sandbox.data("report.json"))
    }

    @Test("Fetched once; no request within maxAge; 304s after it; offline from the cache; --offline fails only an unfetched photo")
    func lifecycle() throws {
        try Sandbox.with { sandbox in
            let folder = sandbox.root.appendingPathComponent("nginx")
            let data = folder.appendingPathComponent("data/photos")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            for photo in Self.photos + ["astronaut.jpg"] {
                try FileManager.default.copyItem(at: CardbakeBinary.demoImages.appendingPathComponent(photo),
                                                 to: data.appendingPathComponent(photo))
            }
            let server = try NginxServer(in: folder)
            defer { server.stop() }
            try Self.writeCatalog(in: sandbox, server: server)

            let cold = try Self.build(sandbox)
            #expect(cold.status == 0, "\(cold)")
            #expect(Self.photoRequests(server).map(\.status) == [200, 200, 200])
            let first = try Self.report(sandbox)
            #expect(first.count(.rendered) == 3 && first.photos?.count(.fetched) == 3)
            #expect(first.photos?.downloadedBytes == Self.photos.reduce(0) { total, photo in
                total + ((try? Data(contentsOf: data.appendingPathComponent(photo)).count) ?? 0)
            })

            // Within maxAge: not one request.
            let again = try Self.build(sandbox, ["--verbose"])
            #expect(again.status == 0, "\(again)")
            #expect(Self.photoRequests(server).count == 3)
            #expect(try Self.report(sandbox).photos?.count(.cached) == 3)
            #expect(again.stderr.contains("photo of card0: cached"), "\(again)")

            // Past maxAge ("0": always): conditional GETs, answered 304, nothing downloaded or rendered.
            try Self.writeCatalog(in: sandbox, server: server, maxAge: "0")
            let revalidated = try Self.build(sandbox)
            #expect(revalidated.status == 0, "\(revalidated)")
            #expect(Self.photoRequests(server).dropFirst(3).map(\.status) == [304, 304, 304])
            let third = try Self.report(sandbox)
            #expect(third.photos?.count(.revalidated) == 3 && third.photos?.downloadedBytes == 0)
            #expect(third.count(.rendered) == 0)

            // `check` answers from the records, with no request, and says they are stale.
            let check = try sandbox.run(["check", "catalog.json", "-o", "out", "--cache-dir", "cache"])
            #expect(check.status == 0, "\(check)")
            #expect(check.stderr.contains("longer than remoteImages.maxAge"), "\(check)")
            #expect(Self.photoRequests(server).count == 6)

            // The server gone: --offline builds from the cache without a request; a new photo never
            // fetched fails its card only.
            server.stop()
            let offline = try Self.build(sandbox, ["--offline"])
            #expect(offline.status == 0, "\(offline)")
            try Self.writeCatalog(in: sandbox, server: server, photos: Self.photos + ["astronaut.jpg"])
            let unfetched = try Self.build(sandbox, ["--offline"])
            #expect(unfetched.status == 1, "\(unfetched)")
            let last = try Self.report(sandbox)
            #expect(last.failures.map(\.id) == ["card3"])
            #expect(last.failures.first?.reason?.contains("--offline") == true, "\(last.failures)")
            #expect(last.count(.cached) == 3)
        }
    }

    @Test("A URL no allow pattern matches, another scheme, or credentials: refused at validation with the JSON path, exit 2")
    func refusedURLs() throws {
        try Sandbox.with { sandbox in
            let cards: [[String: Any]] = [
                ["id": "a", "image": "https://cdn.example.com/photos/a.jpg", "title": "A", "description": "Allowed."],
                ["id": "b", "image": "https://evil.example.net/b.jpg", "title": "B", "description": "Not listed."],
                ["id": "c", "image": "file:///etc/passwd", "title": "C", "description": "A file URL."],
                ["id": "d", "image": "https://user:pw@cdn.example.com/photos/d.jpg", "title": "D", "description": "Credentials."],
                ["id": "e", "image": "https://cdn.example.com/private/e.jpg", "title": "E", "description": "Outside the prefix."],
            ]
            let json: [String: Any] = ["version": 1, "cards": cards,
                                       "remoteImages": ["allow": ["cdn.example.com/photos/"]]]
            try sandbox.write(JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]), to: "catalog.json")
            let result = try sandbox.run(["build", "catalog.json", "-o", "out", "--cache-dir", "cache"])
            #expect(result.status == 2, "\(result)")
            for path in ["cards[1] (\"b\").image", "cards[2] (\"c\").image", "cards[3] (\"d\").image", "cards[4] (\"e\").image"] {
                #expect(result.stderr.contains(path), "\(path): \(result)")
            }
            #expect(!result.stderr.contains("cards[0]"), "\(result)")
            #expect(!result.stderr.contains("pw@"), "\(result)")
        }
    }
}
