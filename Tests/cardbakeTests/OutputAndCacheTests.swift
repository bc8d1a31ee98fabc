import Foundation
import Testing

/// What cardbake removes from the output folder, where its cache lives, and `clean`.
@Suite("Output folder, cache and clean")
struct OutputAndCacheTests {
    @Test("Removing a card from the catalog removes its files and entry, and never a file cardbake did not write")
    func pruning() throws {
        try Sandbox.with { sandbox in
            // Given a build at two scales, and files of the user's own in OUT/cards and OUT
            try sandbox.writeCatalog(threeCards, style: ["scales": [1, 2]])
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let foreign = ["OUT/cards/mine.png", "OUT/cards/ghost@1x.png", "OUT/cards/.hidden", "OUT/README.md"]
            for file in foreign {
                try sandbox.write("not cardbake's\n", to: file)
            }

            // When the middle card leaves the catalog
            try sandbox.writeCatalog([threeCards[0], threeCards[2]], style: ["scales": [1, 2]])
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then its files and entry are gone, and only those
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 2, rendered: 0, cached: 2, failed: 0), result.comment)
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.map(\.id) == ["zeta-coffee", "mid-cat"])
            #expect(!sandbox.exists("OUT/cards/alpha-astronaut@1x.jpg"))
            #expect(!sandbox.exists("OUT/cards/alpha-astronaut@2x.jpg"))
            for file in foreign {
                #expect(try sandbox.data(file) == Data("not cardbake's\n".utf8), "\(file) was removed or changed")
            }
            for card in [threeCards[0], threeCards[2]] {
                #expect(sandbox.exists("OUT/cards/\(card.id)@1x.jpg") && sandbox.exists("OUT/cards/\(card.id)@2x.jpg"))
            }
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.removed == ["cards/alpha-astronaut@1x.jpg", "cards/alpha-astronaut@2x.jpg"])

            // and a build with no cards left removes the rest of cardbake's files, but not the user's
            try sandbox.writeCatalog([])
            let empty = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            #expect(empty.status == 0, empty.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.isEmpty)
            #expect(sandbox.fileNames("OUT/cards") == [".hidden", "ghost@1x.png", "mine.png"])
        }
    }

    @Test("Dropping a scale removes that scale's files")
    func droppedScale() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog([threeCards[0]], style: ["scales": [1, 2]])
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)

            // When
            try sandbox.writeCatalog([threeCards[0]], style: ["scales": [2]])
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT/cards") == ["zeta-coffee@2x.jpg"])
        }
    }

    @Test("--no-cache renders everything even with a warm cache, and leaves the cache as it was")
    func noCacheWithWarmCache() throws {
        try Sandbox.with { sandbox in
            // Given a build that filled the default cache
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let cache = sandbox.listing(".cardbake")

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--no-cache"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 2, rendered: 2, cached: 0, failed: 0), result.comment)
            #expect(sandbox.listing(".cardbake") == cache, "--no-cache changed the cache")
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.count == 2)
        }
    }

    @Test("--no-cache leaves no cache folder anywhere: not .cardbake, not $CARDBAKE_CACHE_DIR, nothing in TMPDIR")
    func noCacheLeavesNothing() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            let temporary = sandbox.root.appendingPathComponent("tmpdir")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let environment = ["CARDBAKE_CACHE_DIR": "env-cache", "TMPDIR": temporary.path]

            // When built twice
            let first = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--no-cache"], environment: environment)
            let second = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--no-cache"], environment: environment)

            // Then both render everything
            #expect(first.status == 0, first.comment)
            #expect(Summary.find(in: first) == Summary(total: 2, rendered: 2, cached: 0, failed: 0), first.comment)
            #expect(Summary.find(in: second) == Summary(total: 2, rendered: 2, cached: 0, failed: 0), second.comment)
            #expect(sandbox.fileNames(".").filter { !$0.hasPrefix("images") && !$0.hasPrefix("OUT") } == ["catalog.json"])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            #expect(leftovers.isEmpty, "left in TMPDIR: \(leftovers)")
        }
    }

    @Test("$CARDBAKE_CACHE_DIR chooses the cache folder (relative to the current folder)")
    func cacheDirFromEnvironment() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            let environment = ["CARDBAKE_CACHE_DIR": "caches/from-env"]

            // When
            let first = try sandbox.run(["build", "catalog.json", "--output", "OUT"], environment: environment)
            let second = try sandbox.run(["build", "catalog.json", "--output", "OUT"], environment: environment)
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"], environment: environment)

            // Then
            #expect(first.status == 0, first.comment)
            #expect(!sandbox.fileNames("caches/from-env").isEmpty, "nothing cached in $CARDBAKE_CACHE_DIR")
            #expect(!sandbox.exists(".cardbake"))
            #expect(Summary.find(in: second) == Summary(total: 2, rendered: 0, cached: 2, failed: 0), second.comment)
            #expect(check.status == 0, check.comment)
        }
    }

    @Test("--cache-dir chooses the cache folder, over $CARDBAKE_CACHE_DIR")
    func cacheDirFlag() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            let flagCache = sandbox.root.appendingPathComponent("flag-cache").path
            let environment = ["CARDBAKE_CACHE_DIR": "env-cache"]

            // When
            let first = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--cache-dir", flagCache],
                                        environment: environment)
            let createdFlagCache = FileManager.default.fileExists(atPath: flagCache)
            let createdOthers = sandbox.exists("env-cache") || sandbox.exists(".cardbake")
            let second = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--cache-dir", flagCache])
            let elsewhere = try sandbox.run(["build", "catalog.json", "--output", "OUT2"])

            // Then the first build cached in the --cache-dir folder only, which the second reused
            #expect(first.status == 0, first.comment)
            #expect(createdFlagCache, "--cache-dir was not created")
            #expect(!createdOthers, "another cache folder was created: \(sandbox.fileNames("."))")
            #expect(Summary.find(in: second) == Summary(total: 2, rendered: 0, cached: 2, failed: 0), second.comment)
            #expect(Summary.find(in: elsewhere) == Summary(total: 2, rendered: 2, cached: 0, failed: 0), elsewhere.comment)
        }
    }

    @Test("clean --output removes only the manifest and the files it lists; clean --cache only the cache")
    func cleanSeparately() throws {
        try Sandbox.with { sandbox in
            // Given a build into the default Output, plus the user's own files there
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json"]).status == 0)
            try sandbox.write("keep me\n", to: "Output/README.md")
            try sandbox.write("keep me\n", to: "Output/cards/mine.png")
            let cache = sandbox.listing(".cardbake")
            try #require(!cache.isEmpty)

            // When
            let cleanOutput = try sandbox.run(["clean", "--only", "output"])

            // Then
            #expect(cleanOutput.status == 0, cleanOutput.comment)
            #expect(sandbox.fileNames("Output") == ["README.md", "cards", "cards/mine.png"])
            #expect(sandbox.listing(".cardbake") == cache, "clean --output touched the cache")

            // When
            let cleanCache = try sandbox.run(["clean", "--only", "cache"])

            // Then
            #expect(cleanCache.status == 0, cleanCache.comment)
            #expect(!sandbox.exists(".cardbake"))
            #expect(sandbox.fileNames("Output") == ["README.md", "cards", "cards/mine.png"])
        }
    }

    @Test("clean with --output-dir and --cache-dir removes both by default, and leaves an empty cards/ folder out")
    func cleanBoth() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT", "--cache-dir", "C"]).status == 0)
            try sandbox.write("keep me\n", to: "OUT/notes.txt")
            try sandbox.writeCatalog([threeCards[2]], to: "other.json")
            try #require(try sandbox.run(["build", "other.json", "--output", "OTHER", "--cache-dir", "C"]).status == 0)

            // When
            let result = try sandbox.run(["clean", "--output", "OUT", "--cache-dir", "C"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT") == ["notes.txt"])
            #expect(!sandbox.exists("C"))
            #expect(sandbox.exists("OTHER/manifest.json"), "clean removed another output folder")

            // and cleaning again is fine
            let again = try sandbox.run(["clean", "--output", "OUT", "--cache-dir", "C"])
            #expect(again.status == 0, again.comment)
        }
    }
}
