import CardBake
import CardBakeCache
import CardBakeManifest
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    /// nginx's requests so far: their methods, paths and statuses.
    static func photoRequests(_ server: NginxServer) -> [(method: String, path: String, status: Int)] {
        server.accessLog().compactMap { line in
            // 127.0.0.1 - - [date] "GET /photos/coffee.jpg HTTP/1.1" 200 …
            let parts = line.split(separator: "\"")
            guard parts.count >= 3 else { return nil }
            let request = parts[1].split(separator: " ")
            guard request.count >= 2, let status = Int(parts[2].split(separator: " ").first ?? "") else { return nil }
            return (String(request[0]), String(request[1]), status)
        }
    }

    static func build(_ sandbox: Sandbox, _ extra: [String] = []) throws -> RunResult {
        try sandbox.run(["build", "catalog.json", "-o", "out", "--cache-dir", "cache", "--report", "report.json"] + extra)
    }

    static func report(_ sandbox: Sandbox) throws -> BuildReport {
        try JSONDecoder().decode(BuildReport.self, from: sandbox.data("report.json"))
    }

    /// Runs `body` with a sandbox and nginx serving `photos` and `astronaut.jpg` from `/photos/`, whose
    /// folder it is given.
    static func withPhotoServer(_ body: (Sandbox, NginxServer, _ photos: URL) throws -> Void) throws {
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
            try body(sandbox, server, data)
        }
    }

    @Test("Fetched once; no request within maxAge; 304s after it; offline from the cache; --offline fails only an unfetched photo")
    func lifecycle() throws {
        try Self.withPhotoServer { sandbox, server, data in
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

    @Test("A shard fetches only its own cards' photos, and --verbose counts the downloads as they finish")
    func shardFetchesItsOwn() throws {
        try Self.withPhotoServer { sandbox, server, _ in
            let photos = Self.photos + ["astronaut.jpg"]
            try Self.writeCatalog(in: sandbox, server: server, photos: photos)

            let shard = try Self.build(sandbox, ["--shard", "1/2", "--verbose"])

            #expect(shard.status == 0, "\(shard)")
            let built = try Self.report(sandbox).cards.map(\.id)
            #expect(!built.isEmpty && built.count < photos.count, "\(built)")
            let wanted = built.map { "/photos/" + photos[Int($0.dropFirst("card".count))!] }
            #expect(Self.photoRequests(server).map(\.path).sorted() == wanted.sorted())
            let counts = shard.stderrLines.filter { $0.hasPrefix("downloaded ") }
            #expect(counts.last == "downloaded \(built.count) photo\(built.count == 1 ? "" : "s")", "\(shard)")
        }
    }

    @Test("Over https: verified against the CA SSL_CERT_FILE names; a redirect from https to http is refused without a request")
    func httpsRedirectToHTTP() throws {
        try Self.withPhotoServer { sandbox, plain, _ in
            // A certificate authority of the test's own, for 127.0.0.1.
            let tls = sandbox.root.appendingPathComponent("tls")
            try FileManager.default.createDirectory(at: tls.appendingPathComponent("data/photos"), withIntermediateDirectories: true)
            let (certificate, key) = (tls.appendingPathComponent("cert.pem"), tls.appendingPathComponent("key.pem"))
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                 "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path]
            openssl.standardOutput = FileHandle.nullDevice
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            try #require(openssl.terminationStatus == 0, "openssl could not make a certificate")
            try FileManager.default.copyItem(at: CardbakeBinary.demoImages.appendingPathComponent("coffee.jpg"),
                                             to: tls.appendingPathComponent("data/photos/coffee.jpg"))
            var behaviour = NginxServer.Behaviour()
            behaviour.tls = (certificate, key)
            behaviour.redirects = ["/photos/moved.jpg": "\(plain.url)/photos/rocket.jpg"]
            let secure = try NginxServer(in: tls, behaviour: behaviour)
            defer { secure.stop() }
            let cards: [[String: Any]] = [
                ["id": "secure", "image": "\(secure.url)/photos/coffee.jpg", "title": "Over https", "description": ""],
                ["id": "downgraded", "image": "\(secure.url)/photos/moved.jpg", "title": "Sent to http", "description": ""],
            ]
            let catalog: [String: Any] = ["version": 1, "style": ["scales": [1]], "cards": cards,
                                          "remoteImages": ["allow": ["127.0.0.1"]]]
            try sandbox.write(JSONSerialization.data(withJSONObject: catalog), to: "catalog.json")

            // Without the test's CA the certificate is refused.
            let build = ["build", "catalog.json", "-o", "out", "--cache-dir", "cache", "--report", "report.json"]
            let untrusted = try sandbox.run(build, environment: ["SSL_CERT_FILE": nil])
            #expect(untrusted.status == 1, "\(untrusted)")
            #expect(try Self.report(sandbox).failures.map(\.id) == ["secure", "downgraded"])

            let result = try sandbox.run(build, environment: ["SSL_CERT_FILE": certificate.path])
            #expect(result.status == 1, "\(result)")
            let report = try Self.report(sandbox)
            #expect(report.count(.rendered) == 1 && report.failures.map(\.id) == ["downgraded"])
            let reason = report.failures.first?.reason ?? ""
            #expect(reason.contains("redirect to a scheme not allowed"), "\(reason)")
            #expect(Self.photoRequests(plain).isEmpty, "the http server was never asked")
        }
    }

    @Test("A machine whose remote cache holds the cards never downloads their photos; one card edited there takes its photo's bytes from the remote cache")
    func remoteCacheSparesThePhotos() throws {
        try Self.withPhotoServer { sandbox, photos, data in
            try NginxServer.with(in: sandbox.root.appendingPathComponent("remote")) { remote in
                try Self.writeCatalog(in: sandbox, server: photos)
                func build(_ machine: String) throws -> RunResult {
                    try sandbox.run(["build", "catalog.json", "-o", "out-\(machine)", "--cache-dir", "cache-\(machine)",
                                     "--report", "report.json", "--remote-cache", remote.url])
                }
                let first = try build("a")
                #expect(first.status == 0, "\(first)")
                #expect(Self.photoRequests(photos).count == 3)
                let photoDigests = try Self.photos.map { ContentDigest.sha256(try Data(contentsOf: data.appendingPathComponent($0))) }
                let photoGets = {
                    RemotePhotoTests.photoRequests(remote).filter { request in
                        request.method == "GET" && photoDigests.contains { request.path.hasSuffix("/cas/\($0)") } && request.status == 200
                    }.count
                }

                // A second machine, empty cache and output: every card from the remote cache, no photo fetched.
                let second = try build("b")
                #expect(second.status == 0, "\(second)")
                let report = try Self.report(sandbox)
                #expect(report.count(.cached) == 3, "\(report.cards.map(\.status))")
                #expect(Self.photoRequests(photos).count == 3, "no request to the photos' server")
                #expect(photoGets() == 0, "no photo's bytes from the remote cache either")
                let check = try sandbox.run(["check", "catalog.json", "-o", "out-b", "--cache-dir", "cache-b"])
                #expect(check.status == 0, "check answers from the photos' records, without their bytes: \(check)")

                // An edited title there renders its card from the photo's bytes in the remote cache.
                photos.stop()
                var catalog = try #require(try JSONSerialization.jsonObject(with: sandbox.data("catalog.json")) as? [String: Any])
                var cards = try #require(catalog["cards"] as? [[String: Any]])
                cards[0]["title"] = "Edited on the second machine"
                catalog["cards"] = cards
                try sandbox.write(JSONSerialization.data(withJSONObject: catalog), to: "catalog.json")
                let edited = try build("b")
                #expect(edited.status == 0, "\(edited)")
                let editedReport = try Self.report(sandbox)
                #expect(editedReport.count(.rendered) == 1 && editedReport.count(.cached) == 2)
                #expect(photoGets() == 1)
            }
        }
    }

    @Test("watch with photos from URLs: the first build fetches them, an edited title rebuilds its card with no request")
    func watchWithURLs() throws {
        try Self.withPhotoServer { sandbox, server, _ in
            try Self.writeCatalog(in: sandbox, server: server)
            let watch = try sandbox.start(["watch", "catalog.json", "-o", "out", "--cache-dir", "cache"])
            defer { watch.send(SIGKILL) }
            try #require(watch.waitForStderr(containing: "watching"), "no first build\n\(watch.stderrSoFar)")
            #expect(Self.photoRequests(server).count == 3)

            var catalog = try #require(try JSONSerialization.jsonObject(with: sandbox.data("catalog.json")) as? [String: Any])
            var cards = try #require(catalog["cards"] as? [[String: Any]])
            cards[0]["title"] = "Edited while watching"
            catalog["cards"] = cards
            try sandbox.write(JSONSerialization.data(withJSONObject: catalog), to: "catalog.json.new")
            #expect(rename(sandbox.url("catalog.json.new").path, sandbox.url("catalog.json").path) == 0)

            let title = { (try? CardManifest(contentsOf: sandbox.url("out/manifest.json")))?.cards.first?.title }
            #expect(watch.waitUntil { title() == "Edited while watching" }, "the edit never reached the manifest\n\(watch.stderrSoFar)")
            #expect(Self.photoRequests(server).count == 3, "no request within maxAge")
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
