import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A write limit (`ulimit -f`) reached part-way through a build, as a full disk would: a clear error,
/// no partial file anywhere, the cache still valid, and the next build completes the job.
@Suite("Write limits")
struct WriteLimitTests {
    /// Smaller than any card bitmap, so the first one written fails with EFBIG.
    static let limit = 16

    @Test("A write limit met while rendering into the cache stops the build and leaves the output as it was")
    func limitWhileRendering() throws {
        try Sandbox.with { sandbox in
            // Given a finished build, then a catalog with more cards
            try sandbox.writeCatalog(Array(threeCards.prefix(1)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let before = sandbox.listing("OUT")
            try sandbox.writeCatalog(threeCards)

            // When
            let limited = try sandbox.run(["build", "catalog.json", "--output", "OUT"], fileSizeLimit: Self.limit)

            // Then it says what it could not write and why, and stops
            #expect(limited.exited && limited.status == 1, limited.comment)
            let error = limited.stderrLines.first { $0.hasPrefix("error: Could not write") }
            #expect(error?.contains("/.cardbake/") == true && error?.contains("File too large") == true, limited.comment)
            #expect(limited.stderr.contains("the build stopped"), limited.comment)
            #expect(Summary.find(in: limited) == nil, limited.comment)
            #expect(sandbox.listing("OUT") == before, "the stopped build changed OUT")
            #expect(sandbox.temporaryFiles(".").isEmpty, "left behind: \(sandbox.temporaryFiles("."))")
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])

            try expectNextBuildCompletes(in: sandbox)
        }
    }

    @Test("A write limit met while copying cards to the output stops the build with no partial file there")
    func limitWhileWritingOutput() throws {
        try Self.withCacheElsewhere { sandbox, cache in
            // Given a cache on another file system (so bitmaps are copied, not linked) that holds every
            // card, and an empty output folder
            try sandbox.writeCatalog(threeCards)
            try #require(try sandbox.run(["build", "catalog.json", "--output", "REF"] + cache.arguments).status == 0)

            // When
            let limited = try sandbox.run(["build", "catalog.json", "--output", "OUT"] + cache.arguments,
                                          fileSizeLimit: Self.limit)

            // Then it names the output file it could not write, and leaves no part of one
            #expect(limited.exited && limited.status == 1, limited.comment)
            let error = limited.stderrLines.first { $0.hasPrefix("error: Could not write") }
            #expect(error?.contains("/OUT/cards/") == true && error?.contains("File too large") == true, limited.comment)
            for file in sandbox.fileNames("OUT/cards") {
                #expect(try sandbox.data("OUT/cards/\(file)") == sandbox.data("REF/cards/\(file)"), "partial \(file)")
            }
            #expect(!sandbox.exists("OUT/manifest.json"))
            #expect(sandbox.temporaryFiles(".").isEmpty, "left behind: \(sandbox.temporaryFiles("."))")
            #expect(FolderAudit.cache(cache.url) == [])

            try expectNextBuildCompletes(in: sandbox, cache.arguments)
        }
    }

    @Test("A write limit met part-way through replacing the output leaves the manifest and its files in agreement")
    func limitWhileReplacingOutput() throws {
        try Self.withCacheElsewhere { sandbox, cache in
            // Given a finished build, and a cache (on another file system: bitmaps are copied) that
            // already holds every card of a catalog that changes them all
            let style: [String: Any] = ["scales": [1, 3]]
            try sandbox.writeCatalog(threeCards, style: style)
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"] + cache.arguments).status == 0)
            let changed = threeCards.map { CardSpec($0.id, image: $0.image, title: $0.title + ", changed") }
            try sandbox.writeCatalog(changed, style: style)

            // When a limit lets every 1x file be written but no 3x one
            let limited = try buildLimitedBetweenScales(changed, in: sandbox, cache.arguments)

            // Then the build stops, and every file the manifest on disk lists has the bytes it lists
            #expect(limited.exited && limited.status == 1, limited.comment)
            #expect(FolderAudit.output(sandbox.url("OUT")).filter { !$0.hasPrefix("not in the manifest") } == [])

            try expectNextBuildCompletes(in: sandbox, cache.arguments)
        }
    }

    @Test("A write limit met part-way through writing a new card rolls the folder back to the manifest in place, removing the new card's files")
    func limitWhileAddingOutput() throws {
        try Self.withCacheElsewhere { sandbox, cache in
            // Given a finished build, and a cache (on another file system: bitmaps are copied) that holds
            // every card of a catalog that adds a card first and changes the others
            let style: [String: Any] = ["scales": [1, 3]]
            try sandbox.writeCatalog(threeCards, style: style)
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"] + cache.arguments).status == 0)
            let manifest = try sandbox.data("OUT/manifest.json")
            let changed = [CardSpec("new-coffee", image: "coffee.jpg", title: "Another coffee")]
                + threeCards.map { CardSpec($0.id, image: $0.image, title: $0.title + ", changed") }
            try sandbox.writeCatalog(changed, style: style)

            // When a limit lets every 1x file be written but no 3x one, one card at a time, so the new card's 1x is written
            let limited = try buildLimitedBetweenScales(changed, in: sandbox, ["--jobs", "1"] + cache.arguments)

            // Then the build stops, and the folder is the old build's: its manifest, the files it lists
            // with the bytes it lists, nothing else (no new card's file, no journal left for the next build)
            #expect(limited.exited && limited.status == 1, limited.comment)
            #expect(try sandbox.data("OUT/manifest.json") == manifest)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])

            try expectNextBuildCompletes(in: sandbox, cache.arguments)
        }
    }

    /// A cache folder on another file system than the sandbox's (`/dev/shm`, a tmpfs), from which the
    /// output's bitmaps are copied, not hard-linked: only a copy writes bytes a write limit can stop.
    struct CacheElsewhere {
        let url: URL
        var arguments: [String] { ["--cache-dir", url.path] }
    }

    /// Runs `body` with a new sandbox and a ``CacheElsewhere``, both removed afterwards.
    private static func withCacheElsewhere(_ body: (Sandbox, CacheElsewhere) throws -> Void) throws {
        try Sandbox.with { sandbox in
            let cache = URL(fileURLWithPath: "/dev/shm/cardbake-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: cache) }
            var here = stat(), there = stat()
            try #require(stat(sandbox.work.path, &here) == 0 && stat(cache.path, &there) == 0 && here.st_dev != there.st_dev,
                         "/dev/shm is not a file system of its own")
            try body(sandbox, CacheElsewhere(url: cache))
        }
    }

    /// Builds the catalog (`cards`, at scales 1 and 3) into OUT with `arguments` under a file size
    /// limit that lets every 1x file be written but no 3x one, the sizes taken from a build into REF
    /// (with `arguments` too).
    private func buildLimitedBetweenScales(_ cards: [CardSpec], in sandbox: Sandbox, _ arguments: [String] = []) throws -> RunResult {
        try #require(try sandbox.run(["build", "catalog.json", "--output", "REF"] + arguments).status == 0)
        let sizes = { (scale: Int) in try cards.map { try sandbox.data("REF/cards/\($0.id)@\(scale)x.jpg").count } }
        let (largest1x, smallest3x) = (try sizes(1).max()!, try sizes(3).min()!)
        try #require(largest1x + 2048 < smallest3x)
        return try sandbox.run(["build", "catalog.json", "--output", "OUT"] + arguments,
                               fileSizeLimit: (largest1x + smallest3x) / 2 / 1024)
    }

    /// A build without the limit succeeds, and its output is byte for byte that of a build from scratch.
    private func expectNextBuildCompletes(in sandbox: Sandbox, _ cacheArguments: [String] = []) throws {
        let next = try sandbox.run(["build", "catalog.json", "--output", "OUT"] + cacheArguments)
        #expect(next.status == 0, next.comment)
        #expect(FolderAudit.output(sandbox.url("OUT")) == [])
        let scratch = try sandbox.run(["build", "catalog.json", "--output", "SCRATCH", "--no-cache"])
        try #require(scratch.status == 0, scratch.comment)
        for file in sandbox.fileNames("SCRATCH") where !(FileIdentity(of: sandbox.url("SCRATCH/\(file)"))?.isDirectory ?? false) {
            #expect(try sandbox.data("OUT/\(file)") == sandbox.data("SCRATCH/\(file)"), "\(file) differs from a build from scratch")
        }
    }
}
