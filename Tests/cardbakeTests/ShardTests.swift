import CardBake
import Foundation
import Testing

/// Six cards spread over three shards (1: coins, retina; 2: rocket; 3: the three of `threeCards`).
let sixCards = threeCards + [
    CardSpec("coins", image: "coins.jpg"),
    CardSpec("rocket", image: "rocket.jpg"),
    CardSpec("retina", image: "retina.jpg"),
]

/// `build --shard i/N` and `merge`: what a CI matrix of shards produces, and the sets merge refuses.
@Suite("Sharded builds and merge")
struct ShardTests {
    /// Builds shards 1…`count` of `catalog` into `<prefix>1` … `<prefix>N`, each with the cache `cache`.
    static func buildShards(_ sandbox: Sandbox, count: Int, catalog: String = "catalog.json", prefix: String = "shard",
                            cache: String = "cache") throws -> [RunResult] {
        try (1...count).map { index in
            try sandbox.run(["build", catalog, "--shard", "\(index)/\(count)", "--output", "\(prefix)\(index)",
                             "--cache-dir", cache])
        }
    }

    static func cardIDs(in sandbox: Sandbox, _ folder: String) throws -> [String] {
        try ManifestFile.read(from: sandbox.url("\(folder)/manifest.json")).cards.map(\.id)
    }

    @Test("Shards built on separate machines and merged equal a single build: manifest bytes and every image's bytes")
    func mergeEqualsSingleBuild() throws {
        try Sandbox.with { sandbox in
            // Given a single build, and three shards each built with a cache of its own
            try sandbox.writeCatalog(sixCards)
            let single = try sandbox.run(["build", "catalog.json", "--output", "WHOLE", "--cache-dir", "cache-whole"])
            #expect(single.status == 0, single.comment)
            for (index, result) in try (1...3).map({ index in
                try sandbox.run(["build", "catalog.json", "--shard", "\(index)/3", "--output", "shard\(index)",
                                 "--cache-dir", "cache\(index)"])
            }).enumerated() {
                #expect(result.status == 0, result.comment)
                #expect(sandbox.exists("shard\(index + 1)/shard.json"), result.comment)
            }

            // Then each shard holds only its cards, in catalog order, and together they hold every card once
            #expect(try Self.cardIDs(in: sandbox, "shard1") == ["coins", "retina"])
            #expect(try Self.cardIDs(in: sandbox, "shard2") == ["rocket"])
            #expect(try Self.cardIDs(in: sandbox, "shard3") == ["zeta-coffee", "alpha-astronaut", "mid-cat"])
            #expect(sandbox.fileNames("shard2").filter { !$0.hasPrefix("manifest/") } == ["cards", "cards/rocket@1x.jpg", "manifest", "manifest.json", "shard.json"])

            // When they are merged, in any order
            let merge = try sandbox.run(["merge", "MERGED", "shard3", "shard1", "shard2"])

            // Then the output is the single build's, byte for byte, and check finds it up to date
            #expect(merge.status == 0, merge.comment)
            #expect(merge.stdout.contains("6 cards"), merge.comment)
            #expect(try sandbox.data("MERGED/manifest.json") == sandbox.data("WHOLE/manifest.json"))
            #expect(sandbox.fileNames("MERGED") == sandbox.fileNames("WHOLE"))
            for file in sandbox.fileNames("WHOLE") where file.hasSuffix(".jpg") {
                #expect(try sandbox.data("MERGED/\(file)") == sandbox.data("WHOLE/\(file)"), "\(file)")
            }
            #expect(sandbox.temporaryFiles("MERGED").isEmpty && !sandbox.exists("MERGED/.cardbake-unfinished"))
            // and each card file is a link to the shard's, not a copy
            #expect(try Self.inode(sandbox, "MERGED/cards/rocket@1x.jpg") == Self.inode(sandbox, "shard2/cards/rocket@1x.jpg"))
            let check = try sandbox.run(["check", "catalog.json", "--output", "MERGED", "--cache-dir", "cache-whole"])
            #expect(check.status == 0, check.comment)

            // and merging the same shards again rewrites nothing
            let before = sandbox.listing("MERGED")
            let again = try sandbox.run(["merge", "MERGED", "shard1", "shard2", "shard3"])
            #expect(again.status == 0, again.comment)
            #expect(sandbox.listing("MERGED") == before)
        }
    }

    @Test("Merging into a folder that holds an older merge removes the files of cards no longer in the catalog")
    func mergePrunes() throws {
        try Sandbox.with { sandbox in
            // Given a merged folder of six cards
            try sandbox.writeCatalog(sixCards)
            _ = try Self.buildShards(sandbox, count: 3)
            #expect(try sandbox.run(["merge", "OUT", "shard1", "shard2", "shard3"]).status == 0)
            #expect(sandbox.exists("OUT/cards/rocket@1x.jpg"))

            // When "rocket" leaves the catalog and the shards are built and merged again
            try sandbox.writeCatalog(sixCards.filter { $0.id != "rocket" })
            let shards = try Self.buildShards(sandbox, count: 3)
            #expect(shards.allSatisfy { $0.status == 0 }, "\(shards)")
            let merge = try sandbox.run(["merge", "OUT", "shard1", "shard2", "shard3", "--verbose"])

            // Then its file is gone, and the folder is what a single build of the new catalog writes
            #expect(merge.status == 0, merge.comment)
            #expect(merge.stderr.contains("removed cards/rocket@1x.jpg"), merge.comment)
            #expect(!sandbox.exists("OUT/cards/rocket@1x.jpg"))
            #expect(try Self.cardIDs(in: sandbox, "shard2") == [])
            let single = try sandbox.run(["build", "catalog.json", "--output", "WHOLE", "--cache-dir", "cache"])
            #expect(single.status == 0, single.comment)
            #expect(try sandbox.data("OUT/manifest.json") == sandbox.data("WHOLE/manifest.json"))
            // OUT keeps the older merge's manifest pages besides, until its next write.
            let (merged, whole) = (sandbox.fileNames("OUT"), sandbox.fileNames("WHOLE"))
            #expect(merged.filter { !$0.hasPrefix("manifest/") } == whole.filter { !$0.hasPrefix("manifest/") })
            #expect(Set(whole).isSubset(of: merged))
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
        }
    }

    @Test("Adding a card to the catalog moves no other card to another shard")
    func addingACardMovesNoOther() throws {
        try Sandbox.with { sandbox in
            // Given the shards of six cards
            try sandbox.writeCatalog(sixCards)
            _ = try Self.buildShards(sandbox, count: 3)
            let before = try (1...3).map { try Self.cardIDs(in: sandbox, "shard\($0)") }

            // When a card is added at the top of the catalog and the shards are built again
            try sandbox.writeCatalog([CardSpec("new-camera", image: "camera-operator.jpg")] + sixCards)
            let results = try Self.buildShards(sandbox, count: 3)

            // Then every card stays on its shard, the new one joins one shard, and nothing else is rendered
            let after = try (1...3).map { try Self.cardIDs(in: sandbox, "shard\($0)") }
            for index in 0..<3 {
                #expect(after[index].filter { $0 != "new-camera" } == before[index], "shard \(index + 1)")
            }
            #expect(after.filter { $0.contains("new-camera") }.count == 1)
            #expect(results.compactMap(Summary.find(in:)).map(\.rendered).reduce(0, +) == 1, "\(results)")
        }
    }

    @Test("merge refuses a missing shard, a shard given twice and shards of two catalogs, naming them, and writes nothing")
    func mergeRefuses() throws {
        try Sandbox.with { sandbox in
            // Given the two shards of one catalog, and of another that differs in one title
            try sandbox.writeCatalog(sixCards)
            _ = try Self.buildShards(sandbox, count: 2, prefix: "a")
            var edited = sixCards
            edited[0].title = "Another title"
            try sandbox.writeCatalog(edited, to: "other.json")
            _ = try Self.buildShards(sandbox, count: 2, catalog: "other.json", prefix: "b")

            let cases: [(arguments: [String], says: [String])] = [
                (["a1"], ["shards are incomplete", "shard 2/2 is missing"]),
                (["a1", "a1"], ["shard 1/2 was given more than once: a1, a1"]),
                (["a1", "b2"], ["different catalogs", "a1", "b2"]),
                (["a1", "catalog.json"], ["catalog.json is not a shard's output folder"]),
            ]
            for (arguments, says) in cases {
                // When
                let result = try sandbox.run(["merge", "OUT"] + arguments)

                // Then
                #expect(result.status == 2, result.comment)
                for text in says {
                    #expect(result.stderr.contains(text), result.comment)
                }
                #expect(!sandbox.exists("OUT"), result.comment)
            }
        }
    }

    @Test("merge refuses a shard whose card file is not the one its manifest names, naming the file; building that shard again mends it")
    func mergeRefusesADamagedFile() throws {
        try Sandbox.with { sandbox in
            // Given two shards, one of whose files was damaged on its way (a new file, not the built one)
            try sandbox.writeCatalog(sixCards)
            _ = try Self.buildShards(sandbox, count: 2)
            let damagedName = try #require(sandbox.fileNames("shard2").first { $0.hasSuffix(".jpg") })
            var damaged = try sandbox.data("shard2/\(damagedName)")
            damaged[damaged.count / 2] ^= 0xFF
            try sandbox.remove("shard2/\(damagedName)")
            try sandbox.write(damaged, to: "shard2/\(damagedName)")

            // When they are merged
            let result = try sandbox.run(["merge", "OUT", "shard1", "shard2"])

            // Then merge fails naming the file, and writes no manifest
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("shard2/\(damagedName): its bytes are not those its manifest names"), result.comment)
            #expect(!sandbox.exists("OUT/manifest.json"))

            // and once that shard is built again, the merge is the single build's
            try sandbox.remove("shard2")
            #expect(try sandbox.run(["build", "catalog.json", "--shard", "2/2", "--output", "shard2", "--cache-dir", "cache"]).status == 0)
            let merge = try sandbox.run(["merge", "OUT", "shard1", "shard2"])
            #expect(merge.status == 0, merge.comment)
            #expect(try sandbox.run(["build", "catalog.json", "--output", "WHOLE", "--cache-dir", "cache"]).status == 0)
            #expect(try sandbox.data("OUT/manifest.json") == sandbox.data("WHOLE/manifest.json"))
            #expect(sandbox.fileNames("OUT") == sandbox.fileNames("WHOLE"))
        }
    }

    static func inode(_ sandbox: Sandbox, _ file: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: sandbox.url(file).path)[.systemFileNumber] as? UInt64)
    }

    @Test("--shard takes i/N with 1 ≤ i ≤ N; anything else is a usage error naming the flag", arguments: ["0/3", "4/3", "x", "1/0"])
    func badShard(value: String) throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog([sixCards[0]])
            let result = try sandbox.run(["build", "catalog.json", "--shard", value, "--output", "OUT"])
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("--shard"), result.comment)
            #expect(result.stderr.contains(value), result.comment)
            #expect(!sandbox.exists("OUT"), result.comment)
        }
    }
}
