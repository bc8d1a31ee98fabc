@testable import CardBake
import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `cardbake cache stats`, `cardbake cache gc` and `--cache-max-size`: a cache that stays bounded,
/// keeps what the current catalog needs, and stays consistent whatever stops a collection.
@Suite("Cache commands")
struct CacheCommandTests {
    /// Generation `generation` of a two-card catalog: the same images, other titles, so each
    /// generation has bitmaps of its own and shares the backgrounds.
    static func cards(_ generation: Int) -> [CardSpec] {
        [CardSpec("coffee", image: "coffee.jpg", title: "Coffee, take \(generation)"),
         CardSpec("astronaut", image: "astronaut.jpg", title: "Astronaut, take \(generation)")]
    }

    /// Builds generation `generation` into `output` with the cache `cache`; the result must be a success.
    @discardableResult
    static func build(_ generation: Int, in sandbox: Sandbox, output: String? = nil, cache: String = ".cardbake",
                      arguments: [String] = [], environment: [String: String?] = [:]) throws -> RunResult {
        try sandbox.writeCatalog(cards(generation), to: "catalog-\(generation).json")
        let result = try sandbox.run(["build", "catalog-\(generation).json", "--output", output ?? "OUT-\(generation)",
                                      "--cache-dir", cache] + arguments, environment: environment)
        try #require(result.status == 0, result.comment)
        return result
    }

    /// The bytes of a cache folder's entries, as `cache gc` counts them.
    static func entryBytes(_ folder: URL) -> Int64 {
        FolderAudit.files(in: folder).filter { $0.hasPrefix("ac/") || $0.hasPrefix("cas/") }.reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.size])
                as? Int64 ?? 0)
        }
    }

    /// Given, for several tests: generations 3, 1 and 2 built in turn into the default cache, then 3
    /// again (found up to date), and the bytes generation 3 alone takes in a cache of its own.
    func withThreeGenerations(_ body: (Sandbox, _ currentBytes: Int64) throws -> Void) throws {
        try Sandbox.with { sandbox in
            for generation in [3, 1, 2, 3] {
                try Self.build(generation, in: sandbox)
            }
            try Self.build(3, in: sandbox, output: "OUT-alone", cache: "alone")
            try body(sandbox, Self.entryBytes(sandbox.url("alone")))
        }
    }

    @Test("gc removes the older catalogs' entries, says what it removed, and keeps what the current one needs")
    func collectsOlderCatalogs() throws {
        try withThreeGenerations { sandbox, currentBytes in
            let before = Self.entryBytes(sandbox.url(".cardbake"))
            // When
            let result = try sandbox.run(["cache", "gc", "--max-size", "\(currentBytes)"])
            // Then
            #expect(result.status == 0, result.comment)
            let after = Self.entryBytes(sandbox.url(".cardbake"))
            #expect(before > currentBytes && after <= currentBytes)
            let removed = try #require(result.stdout.firstMatch(of: /removed (\d+) cache entries \(.+\); \d+ entries/), result.comment)
            #expect(Int(removed.1)! > 0)
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            #expect(Self.namedBlobsMissing(in: sandbox.url(".cardbake")) == [])
            // The current catalog comes whole from the cache; the oldest is rendered again.
            #expect(Summary.find(in: try Self.build(3, in: sandbox, output: "FRESH-3"))?.rendered == 0)
            #expect(Summary.find(in: try Self.build(1, in: sandbox, output: "FRESH-1"))?.rendered == 2)
        }
    }

    @Test("A build with --cache-max-size (or CARDBAKE_CACHE_MAX_SIZE) collects the cache down to it and says so",
          arguments: [true, false])
    func buildCollects(flag: Bool) throws {
        try withThreeGenerations { sandbox, currentBytes in
            // When: the current catalog is edited and built with the limit
            try sandbox.writeCatalog(Self.cards(3).map { var card = $0; card.description += " Edited."; return card },
                                     to: "catalog-3.json")
            let limit = "\(currentBytes * 3 / 2)"
            let result = try sandbox.run(["build", "catalog-3.json", "--output", "OUT-3"] + (flag ? ["--cache-max-size", limit] : []),
                                         environment: flag ? [:] : ["CARDBAKE_CACHE_MAX_SIZE": limit])
            // Then
            #expect(result.status == 0, result.comment)
            #expect(result.stderr.contains("cache: removed "), result.comment)
            #expect(Self.entryBytes(sandbox.url(".cardbake")) <= currentBytes * 3 / 2)
            #expect(Self.namedBlobsMissing(in: sandbox.url(".cardbake")) == [])
            #expect(Summary.find(in: try sandbox.run(["build", "catalog-3.json", "--output", "FRESH"]))?.rendered == 0)
        }
    }

    @Test("stats counts the entries and gives the last build's hit rates; the first no-op build after a cold one reads no file back")
    func stats() throws {
        try Sandbox.with { sandbox in
            try Self.build(1, in: sandbox)
            // Written again with the same bytes: the stat cache reads it once more, then knows it.
            try Self.build(1, in: sandbox)
            let noOp = try sandbox.run(["build", "catalog-1.json", "--output", "OUT-1", "--cache-dir", ".cardbake"])
            #expect(noOp.status == 0, noOp.comment)
            let result = try sandbox.run(["cache", "stats"])
            #expect(result.status == 0, result.comment)
            let entries = try #require(result.stdout.firstMatch(of: /entries: (\d+) \((\d+) action results?, (\d+) blobs?\), (\d+) bytes?/),
                                       result.comment)
            #expect(Int(entries.1)! > 0 && Int64(entries.4)! == Self.entryBytes(sandbox.url(".cardbake")))
            #expect(result.stdout.contains("least recently used: "), result.comment)
            // The no-op build found the catalog built as a whole, every file's digest (the catalog's
            // too) from the stat cache.
            #expect(result.stdout.contains("action results: 1 hit, 0 misses"), result.comment)
            #expect(result.stdout.firstMatch(of: /stat cache: [1-9]\d* hits?, 0 misses/) != nil, result.comment)
        }
    }

    @Test("A malformed size or age is a usage error (exit 2) naming the flag or variable",
          arguments: [(["cache", "gc", "--max-size", "12X"], [String: String?](), "--max-size"),
                      (["cache", "gc", "--max-size", "1G", "--max-age", "3w"], [:], "--max-age"),
                      (["build", "catalog-1.json", "--cache-max-size", "lots"], [:], "--cache-max-size"),
                      (["build", "catalog-1.json"], ["CARDBAKE_CACHE_MAX_SIZE": "-5M"], "CARDBAKE_CACHE_MAX_SIZE")])
    func malformedLimits(arguments: [String], environment: [String: String?], named: String) throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(Self.cards(1), to: "catalog-1.json")
            let result = try sandbox.run(arguments, environment: environment)
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("error: \(named) takes a"), result.comment)
            #expect(!sandbox.exists("OUT"))
        }
    }

    @Test("gc and stats keep out of a cache a build holds: --lock-timeout gives up with exit 3 and nothing changes",
          arguments: [["cache", "gc", "--max-size", "0"], ["cache", "stats"]])
    func lockedCache(command: [String]) throws {
        try Sandbox.with { sandbox in
            // Given a cache that another process (a build) holds
            try Self.build(1, in: sandbox)
            let before = sandbox.listing(".cardbake")
            let held = try DirectoryLock.acquire(sandbox.url(".cardbake"), mode: .exclusive, creating: false,
                                                 timeout: .zero, cancellation: Cancellation(), waiting: { _ in })
            // When
            let result = try sandbox.run(command + ["--lock-timeout", "0.2"])
            held?.release()
            // Then
            #expect(result.status == 3, result.comment)
            #expect(result.stderr.contains("(pid \(getpid()))"), result.comment)
            #expect(sandbox.listing(".cardbake") == before)
        }
    }

    @Test("A gc killed with kill -9 while removing leaves a consistent cache; the next gc finishes the job")
    func killedCollection() throws {
        try Sandbox.with { sandbox in
            // Given: the current catalog built, and many entries of no catalog, each record naming its blob
            try Self.build(1, in: sandbox)
            let currentBytes = Self.entryBytes(sandbox.url(".cardbake"))
            let store = try DiskArtifactStore(root: sandbox.url(".cardbake"))
            for index in 0..<3000 {
                let blob = try store.storeBlob(Data("an old bitmap \(index) ".utf8) + Data(count: 300))
                let record = RenderedImageRecord(blob: blob, bytes: 300, width: 1, height: 1)
                try store.storeActionResult(record.cacheBytes, for: ContentDigest.sha256(Data("old key \(index)".utf8)))
            }

            // When: a collection is killed once it has started removing
            let running = try sandbox.start(["cache", "gc", "--max-size", "\(currentBytes)", "--verbose"])
            let reached = running.waitForStderr(containing: "removing ")
            running.send(SIGKILL)
            let killed = try running.wait()

            // Then: no record names a removed blob, and the index names no removed record
            #expect(reached, killed.comment)
            #expect(Self.namedBlobsMissing(in: sandbox.url(".cardbake")) == [])
            #expect(Self.indexedRecordsMissing(in: sandbox.url(".cardbake")) == [])
            // and the next collection finishes the job, leaving what the catalog needs
            let next = try sandbox.run(["cache", "gc", "--max-size", "\(currentBytes)"])
            #expect(next.status == 0, next.comment)
            #expect(Self.entryBytes(sandbox.url(".cardbake")) <= currentBytes)
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            #expect(Summary.find(in: try Self.build(1, in: sandbox, output: "FRESH"))?.rendered == 0)
        }
    }

    /// Bitmap records whose blob is not in `cas/`.
    static func namedBlobsMissing(in cache: URL) -> [String] {
        let store = try? DiskArtifactStore(readingFrom: cache)
        return FolderAudit.files(in: cache).filter { $0.hasPrefix("ac/") }.compactMap { path in
            guard let store, let key = ContentDigest(hex: String(path.split(separator: "/").last ?? "")),
                  let record = store.actionResult(for: key).flatMap(RenderedImageRecord.init(cacheBytes:)) else { return nil }
            let blob = store.blobURL(for: record.blob)
            return FileManager.default.fileExists(atPath: blob.path) ? nil : "\(path) names the missing blob \(record.blob)"
        }
    }

    /// Keys in the action-cache index with no `ac/` entry.
    static func indexedRecordsMissing(in cache: URL) -> [String] {
        guard let store = try? DiskArtifactStore(readingFrom: cache) else { return ["cannot open \(cache.path)"] }
        return IndexedArtifactStore.keys(inIndexAt: cache.appendingPathComponent(CacheWorkspace.indexFile)).compactMap { key in
            FileManager.default.fileExists(atPath: store.actionResultURL(for: key).path) ? nil : "index names \(key)"
        }
    }
}
