import CardBake
import CardBakeCache
import CardBakeManifest
import Foundation
import LoopbackSockets
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--remote-cache` against a real nginx on loopback (Support/NginxServer.swift): machines that share
/// one server, and a server that is damaged, stopped, failing or hanging. Whatever the server does,
/// every build succeeds with every card, and nothing damaged is served.
@Suite("Remote cache against nginx", .serialized)
struct RemoteCacheTests {
    static let cards = ["alpha", "beta", "gamma", "delta"].enumerated().map { index, id in
        CardSpec(id, image: ["coffee.jpg", "rocket.jpg", "coins.jpg", "astronaut.jpg"][index % 4])
    }

    /// One "machine": its own cache and output folder in the sandbox, sharing the server.
    struct Machine {
        let name: String
        var output: String { "out-\(name)" }
        var cache: String { "cache-\(name)" }
        var report: String { "report-\(name).json" }

        @discardableResult
        func build(in sandbox: Sandbox, server: String?, _ extra: [String] = [],
                   environment: [String: String?] = [:]) throws -> RunResult {
            try sandbox.run(arguments(server: server, extra), environment: environment)
        }

        func arguments(server: String?, _ extra: [String] = []) -> [String] {
            ["build", "catalog.json", "-o", output, "--cache-dir", cache, "--report", report]
                + (server.map { ["--remote-cache", $0] } ?? []) + extra
        }

        func report(in sandbox: Sandbox) throws -> BuildReport {
            try JSONDecoder().decode(BuildReport.self, from: sandbox.data(report))
        }
    }

    static let first = Machine(name: "a")
    static let second = Machine(name: "b")

    /// A sandbox with the catalog, and a server folder beside `work/`.
    static func withSandbox(_ body: (Sandbox, URL) throws -> Void) throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(cards)
            try body(sandbox, sandbox.root.appendingPathComponent("nginx"))
        }
    }

    /// The output folder's files and their bytes.
    static func outputs(_ machine: Machine, in sandbox: Sandbox) throws -> [String: Data] {
        let folder = sandbox.url(machine.output)
        return try Dictionary(uniqueKeysWithValues: FolderAudit.files(in: folder).map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        })
    }

    /// Checks a build that must have succeeded with every card, its output folder whole and its cache intact.
    static func expectWhole(_ run: RunResult, _ machine: Machine, in sandbox: Sandbox) throws {
        #expect(run.status == 0, run.comment)
        let report = try machine.report(in: sandbox)
        #expect(report.count(.failed) == 0 && report.cards.count == cards.count, run.comment)
        #expect(FolderAudit.output(sandbox.url(machine.output)) == [])
        #expect(FolderAudit.cache(sandbox.url(machine.cache)) == [])
    }

    @Test("A second machine with an empty cache renders nothing: it downloads outputs byte-identical to the first's")
    func twoMachines() throws {
        try Self.withSandbox { sandbox, folder in
            try NginxServer.with(in: folder) { server in
                let filled = try Self.first.build(in: sandbox, server: server.url)
                try Self.expectWhole(filled, Self.first, in: sandbox)
                let uploaded = try #require(try Self.first.report(in: sandbox).remoteCache)
                #expect(uploaded.uploads == server.objects().count && uploaded.uploads > 0)
                #expect(uploaded.uploadedBytes > 0 && uploaded.hits == 0)

                let fetched = try Self.second.build(in: sandbox, server: server.url)
                try Self.expectWhole(fetched, Self.second, in: sandbox)
                let report = try Self.second.report(in: sandbox)
                #expect(report.count(.rendered) == 0, fetched.comment)
                #expect(report.count(.cached) == Self.cards.count)
                let traffic = try #require(report.remoteCache)
                #expect(traffic.hits > 0 && traffic.downloadedBytes > 0 && traffic.uploads == 0 && traffic.refused == 0)
                #expect(fetched.stdout.contains("remote cache: \(traffic.hits) hits"), fetched.comment)
                #expect(try Self.outputs(Self.second, in: sandbox) == Self.outputs(Self.first, in: sandbox))
                #expect(!fetched.stderr.contains("warning:"), fetched.comment)
            }
        }
    }

    @Test("A flipped byte in a blob on the server is refused with a warning, the card rendered again, the server repaired")
    func flippedByte() throws {
        try Self.withSandbox { sandbox, folder in
            try NginxServer.with(in: folder) { server in
                try Self.expectWhole(try Self.first.build(in: sandbox, server: server.url), Self.first, in: sandbox)
                // The largest blob is a card's bitmap.
                let blobs = server.objects().filter { $0.hasPrefix("cas/") }
                let target = try #require(blobs.max {
                    (FileIdentity(of: server.data.appendingPathComponent($0))?.size ?? 0)
                        < (FileIdentity(of: server.data.appendingPathComponent($1))?.size ?? 0)
                })
                let file = server.data.appendingPathComponent(target)
                let good = try Data(contentsOf: file)
                var bad = good
                bad[bad.count / 2] ^= 0x01
                try bad.write(to: file)

                let run = try Self.second.build(in: sandbox, server: server.url)
                try Self.expectWhole(run, Self.second, in: sandbox)
                let report = try Self.second.report(in: sandbox)
                #expect(report.count(.rendered) == 1, run.comment)
                #expect(report.remoteCache?.refused == 1)
                let digest = String(target.dropFirst(4))
                #expect(run.stderrLines.filter { $0.hasPrefix("warning:") && $0.contains(digest) }.count == 1, run.comment)
                #expect(try Self.outputs(Self.second, in: sandbox) == Self.outputs(Self.first, in: sandbox))
                #expect(try Data(contentsOf: file) == good, "the card rendered again is uploaded over the damaged copy")
            }
        }
    }

    @Test("A bitmap rewritten in place in the output, and so its cache blob, is never uploaded; the server's copy repairs it")
    func editedInPlaceNeverUploaded() throws {
        try Self.withSandbox { sandbox, folder in
            try NginxServer.with(in: folder) { server in
                // Given a build without the server, whose output bitmaps are hard links to the cache's
                // blobs, then one rewritten in place (the blob with it), mtime put back
                try #require(try Self.first.build(in: sandbox, server: nil).status == 0)
                let file = "\(Self.first.output)/cards/\(Self.cards[0].id)@1x.jpg"
                let original = try sandbox.data(file)
                try DiskUse.rewriteInPlace(sandbox.url(file), with: Data(original.map { $0 ^ 0x5a }))

                // When built with the server
                let run = try Self.first.build(in: sandbox, server: server.url)

                // Then that card is rendered again and uploaded; the server holds no blob that does not
                // hash to its name
                try Self.expectWhole(run, Self.first, in: sandbox)
                #expect(try Self.first.report(in: sandbox).count(.rendered) == 1, run.comment)
                #expect(try sandbox.data(file) == original)
                let blobs = server.objects().filter { $0.hasPrefix("cas/") }
                #expect(blobs.contains("cas/\(ContentDigest.sha256(original))"))
                for blob in blobs {
                    let bytes = try Data(contentsOf: server.data.appendingPathComponent(blob))
                    #expect("cas/\(ContentDigest.sha256(bytes))" == blob, "the server received \(blob) damaged")
                }

                // and when rewritten in place again, the next build takes the server's verified copy
                try DiskUse.rewriteInPlace(sandbox.url(file), with: Data(original.prefix(100)))
                let repaired = try Self.first.build(in: sandbox, server: server.url)
                try Self.expectWhole(repaired, Self.first, in: sandbox)
                let report = try Self.first.report(in: sandbox)
                #expect(report.count(.rendered) == 0, repaired.comment)
                #expect(report.remoteCache?.hits == 1 && report.remoteCache?.uploads == 0, repaired.comment)
                #expect(try sandbox.data(file) == original)
            }
        }
    }

    @Test("Read-only mode fetches but writes nothing to the server")
    func readOnly() throws {
        try Self.withSandbox { sandbox, folder in
            try NginxServer.with(in: folder) { server in
                let run = try Self.first.build(in: sandbox, server: server.url, ["--remote-cache-mode", "read"])
                try Self.expectWhole(run, Self.first, in: sandbox)
                #expect(server.objects() == [])
                #expect(!server.accessLog().contains { $0.contains("\"PUT ") })
                #expect(try Self.first.report(in: sandbox).remoteCache?.uploads == 0)
            }
        }
    }

    @Test("Credentials reach the server but never stdout, stderr, --verbose or the report")
    func credentials() throws {
        try Self.withSandbox { sandbox, folder in
            let behaviour = NginxServer.Behaviour(credentials: ("builder", "Sup3rS3cret"))
            try NginxServer.with(in: folder, behaviour: behaviour) { server in
                let inURL = "http://builder:Sup3rS3cret@127.0.0.1:\(server.port)/"
                let run = try Self.first.build(in: sandbox, server: nil, ["--verbose"],
                                               environment: ["CARDBAKE_REMOTE_CACHE": inURL])
                try Self.expectWhole(run, Self.first, in: sandbox)
                #expect(!server.objects().isEmpty, "the credentials were accepted: \(run)")
                let header = "Basic " + Data("builder:Sup3rS3cret".utf8).base64EncodedString()
                let second = try Self.second.build(
                    in: sandbox, server: server.url, ["--verbose"],
                    environment: ["CARDBAKE_REMOTE_CACHE_AUTHORIZATION": header])
                try Self.expectWhole(second, Self.second, in: sandbox)
                #expect(try Self.second.report(in: sandbox).count(.rendered) == 0, second.comment)
                #expect(run.stderr.contains("remote cache: http://***@127.0.0.1:\(server.port)"), run.comment)

                let wrong = try Machine(name: "c").build(in: sandbox, server: nil, ["--verbose"],
                                                         environment: ["CARDBAKE_REMOTE_CACHE": inURL.replacingOccurrences(of: "Sup3r", with: "Bad")])
                try Self.expectWhole(wrong, Machine(name: "c"), in: sandbox)
                let refusedFlag = try Self.first.build(in: sandbox, server: inURL)
                #expect(refusedFlag.status == 2, refusedFlag.comment)

                for result in [run, second, wrong, refusedFlag] {
                    for secret in ["Sup3rS3cret", "BadS3cret", header, String(header.dropFirst(6))] {
                        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), result.comment)
                    }
                }
                for name in ["a", "b", "c"] {
                    let report = String(decoding: try sandbox.data("report-\(name).json"), as: UTF8.self)
                    #expect(!report.contains("S3cret") && !report.contains(String(header.dropFirst(6))), "\(report)")
                }
            }
        }
    }

    @Test("A server answering 500 to everything: every card rendered, the server given up once")
    func failingServer() throws {
        try Self.withSandbox { sandbox, folder in
            _ = try NginxServer.with(in: folder) { try Self.first.build(in: sandbox, server: $0.url) }
            try NginxServer.with(in: folder, behaviour: .init(failing: true)) { server in
                let run = try Self.second.build(in: sandbox, server: server.url)
                try Self.expectWhole(run, Self.second, in: sandbox)
                #expect(try Self.second.report(in: sandbox).count(.rendered) == Self.cards.count)
                #expect(try Self.second.report(in: sandbox).remoteCache?.disabled == true)
                #expect(run.stderrLines.filter { $0.contains("not used for the rest of this build") }.count == 1, run.comment)
                #expect(try Self.outputs(Self.second, in: sandbox) == Self.outputs(Self.first, in: sandbox))
            }
        }
    }

    @Test("A server that hangs: requests time out, every card rendered, the server given up once")
    func hangingServer() throws {
        try Self.withSandbox { sandbox, folder in
            _ = try NginxServer.with(in: folder) { try Self.first.build(in: sandbox, server: $0.url) }
            try NginxServer.with(in: folder, behaviour: .init(bytesPerSecond: 1)) { server in
                let run = try Self.second.build(in: sandbox, server: server.url, ["--remote-cache-timeout", "2"])
                try Self.expectWhole(run, Self.second, in: sandbox)
                #expect(try Self.second.report(in: sandbox).count(.rendered) == Self.cards.count)
                #expect(run.stderrLines.filter { $0.contains("not used for the rest of this build") }.count == 1, run.comment)
            }
        }
    }

    @Test("A refused port, 40 cards: the build asks once, says so once, and renders every card")
    func refusedPort() async throws {
        try await LoopbackSockets.withRefusingPort { port in
            try Self.expectOneFailedRequest(server: "http://127.0.0.1:\(port)/cache", warning: "connection refused")
        }
    }

    @Test("A host that does not resolve (.invalid, RFC 6761), 40 cards: one request, one warning, every card rendered")
    func unknownHost() throws {
        try Self.expectOneFailedRequest(server: "http://cardbake-remote-cache.invalid/cache",
                                        warning: "unknown host cardbake-remote-cache.invalid")
    }

    /// Builds 40 cards with `server` as the remote cache, down in a way the first request finds out:
    /// every card rendered, one request in all, the tier disabled, one warning naming the server and `warning`.
    private static func expectOneFailedRequest(server: String, warning expected: String) throws {
        try Sandbox.with { sandbox in
            let cards = (0..<40).map { index in
                CardSpec(String(format: "card%02d", index), image: ["coffee.jpg", "rocket.jpg", "coins.jpg", "astronaut.jpg"][index % 4])
            }
            try sandbox.writeCatalog(cards)
            let run = try first.build(in: sandbox, server: server)
            #expect(run.status == 0, run.comment)
            let report = try first.report(in: sandbox)
            #expect(report.count(.rendered) == 40 && report.count(.failed) == 0, run.comment)
            #expect(report.remoteCache?.failures == 1, "one request in all: \(String(describing: report.remoteCache))")
            #expect(report.remoteCache?.disabled == true)
            let warnings = run.stderrLines.filter { $0.hasPrefix("warning:") }
            #expect(warnings.count == 1, run.comment)
            #expect(warnings.first?.contains("\(server) is unavailable") == true, run.comment)
            #expect(warnings.first?.contains(expected) == true, run.comment)
        }
    }

    @Test("A server that accepts and never answers, --remote-cache-timeout 1: one connection, one timeout warning")
    func silentServer() throws {
        try Self.withSandbox { sandbox, _ in
            let server = try SilentServer()
            defer { server.stop() }
            let run = try Self.first.build(in: sandbox, server: server.url, ["--remote-cache-timeout", "1"])
            try Self.expectWhole(run, Self.first, in: sandbox)
            #expect(try Self.first.report(in: sandbox).count(.rendered) == Self.cards.count)
            #expect(server.accepted == 1)
            let warnings = run.stderrLines.filter { $0.hasPrefix("warning:") }
            #expect(warnings.count == 1, run.comment)
            #expect(warnings.first?.contains("\(server.url) is unavailable") == true, run.comment)
            #expect(warnings.first?.contains("timed out after 1 s") == true, run.comment)
        }
    }

    @Test("The server stopped in the middle of a build: the build goes on from the local cache and by rendering")
    func serverStopped() throws {
        try Self.withSandbox { sandbox, folder in
            let server = try NginxServer(in: folder)
            defer { server.stop() }
            try Self.first.build(in: sandbox, server: server.url)
            // Twice as many cards: half on the server, half to render (and upload) when it stops.
            let more = Self.cards + Self.cards.map { CardSpec($0.id + "-2", image: $0.image, title: "Another \($0.id)") }
            try sandbox.writeCatalog(more)
            let before = server.accessLog().count
            let running = try sandbox.start(Self.second.arguments(server: server.url, ["--jobs", "1"]))
            let deadline = Date().addingTimeInterval(120)
            while server.accessLog().count == before, Date() < deadline { usleep(5_000) }
            server.stop()
            let run = try running.wait(timeout: 300)
            #expect(run.status == 0, run.comment)
            let report = try Self.second.report(in: sandbox)
            #expect(report.count(.failed) == 0 && report.cards.count == more.count, run.comment)
            #expect(FolderAudit.output(sandbox.url(Self.second.output)) == [])
            #expect(FolderAudit.cache(sandbox.url(Self.second.cache)) == [])
            // Cards are rendered and uploaded after the first request (--jobs 1), so the server is
            // asked again after it stopped: given up once, at the first refusal.
            #expect(run.stderrLines.filter { $0.contains("not used for the rest of this build") }.count == 1, run.comment)
            #expect(report.remoteCache?.disabled == true, run.comment)
            let alone = Machine(name: "alone")
            let without = try alone.build(in: sandbox, server: nil)
            #expect(without.status == 0, without.comment)
            #expect(try Self.outputs(Self.second, in: sandbox) == Self.outputs(alone, in: sandbox))
        }
    }

    @Test("A remote cache URL or mode cardbake cannot use is a usage error (exit 2)")
    func usageErrors() throws {
        try Self.withSandbox { sandbox, _ in
            for arguments in [["--remote-cache", "ftp://host/cache"], ["--remote-cache", "http://host/x?y"],
                              ["--remote-cache", "http://127.0.0.1:1/", "--remote-cache-mode", "sometimes"],
                              ["--remote-cache", "http://127.0.0.1:1/", "--remote-cache-timeout", "0"]] {
                let run = try Self.first.build(in: sandbox, server: nil, arguments)
                #expect(run.status == 2, run.comment)
                #expect(run.stderr.contains("error:"), run.comment)
            }
            let fromEnvironment = try Self.first.build(in: sandbox, server: nil,
                                                       environment: ["CARDBAKE_REMOTE_CACHE": "nonsense"])
            #expect(fromEnvironment.status == 2 && fromEnvironment.stderr.contains("CARDBAKE_REMOTE_CACHE"),
                    fromEnvironment.comment)
        }
    }
}
