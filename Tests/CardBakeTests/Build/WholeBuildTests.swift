import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("A rebuild with nothing changed, recognised as a whole", .vips)
struct WholeBuildTests {
    /// The fixture's whole-build key as the next build would compute it, and whether its output
    /// folder is up to date under that key.
    struct Shortcut {
        var key: ContentDigest?
        var isUpToDate: Bool
    }

    static func shortcut(_ fixture: BuildFixture, format: OutputFormat.Kind? = nil,
                         shard: Shard? = nil) async throws -> Shortcut {
        try fixture.writeCatalog()
        let request = BuildRequest(catalog: fixture.catalog, output: fixture.output, cache: fixture.cache,
                                   overrides: try StyleOverrides(format: format), shard: shard)
        let catalog = try request.loadCatalog()
        let outline = CatalogOutline(shard.map(catalog.restricted(to:)) ?? catalog)
        let statCache = StatCache(loadingFrom: nil)
        guard let build = WholeBuild(outline, catalogDigest: catalog.digest, request: request, statCache: statCache,
                                     fonts: FontResolver()) else {
            return Shortcut(key: nil, isUpToDate: false)
        }
        let records = RecordCache(store: try DiskArtifactStore(root: fixture.cache))
        let pool = WorkerPool(threads: 2)
        defer { pool.shutDown() }
        guard let recorded = await records.record(ContentDigest.self, for: build.key) else {
            return Shortcut(key: build.key, isUpToDate: false)
        }
        let upToDate = await build.isUpToDate(outline, in: OutputFolder(directory: fixture.output, statCache: statCache),
                                              recorded: recorded, pool: pool)
        return Shortcut(key: build.key, isUpToDate: upToDate)
    }

    @Test("After a build, the folder is up to date under the catalog's key; a rebuild reports every card cached")
    func upToDateAfterBuild() async throws {
        let fixture = try BuilderTests.fixture()
        #expect(try await Self.shortcut(fixture).isUpToDate == false)
        try await fixture.build()
        #expect(try await Self.shortcut(fixture).isUpToDate)
        let report = try await fixture.build()
        #expect(report.count(.cached) == 3 && report.count(.rendered) == 0 && report.removed.isEmpty)
        #expect(report.cards.map(\.id) == ["alpha", "beta", "gamma"] && report.cards.map(\.index) == [0, 1, 2])
        #expect(report.cards.allSatisfy { $0.stages == .allCached([1, 2]) })
    }

    @Test("A damaged or deleted output file or manifest is noticed, and the next build puts it back")
    func damagedOutput() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let file = fixture.outputFile("beta@2x.jpg")
        let good = try Data(contentsOf: file)
        let manifest = fixture.output.appendingPathComponent(CardManifest.fileName)
        let damages: [() throws -> Void] = [
            { try Data("not a card".utf8).write(to: file) },
            { try FileManager.default.removeItem(at: file) },
            { try Data("{}".utf8).write(to: manifest) },
        ]
        for damage in damages {
            try damage()
            #expect(try await Self.shortcut(fixture).isUpToDate == false)
            let report = try await fixture.build()
            #expect(report.count(.failed) == 0)
            #expect(try Data(contentsOf: file) == good && fixture.manifest?.cards.count == 3)
            #expect(try await Self.shortcut(fixture).isUpToDate)
        }
    }

    @Test("The key changes with the catalog's bytes, an image's bytes and the request's overrides")
    func keyCoversInputs() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let built = try #require(try await Self.shortcut(fixture).key)

        fixture.cards[0]["title"] = "Another title"
        #expect(try await Self.shortcut(fixture).key != built)
        fixture.cards[0]["title"] = "Title alpha"
        #expect(try await Self.shortcut(fixture).key == built)

        #expect(try await Self.shortcut(fixture, format: .jpeg).key != built)
        var keys: Set<ContentDigest?> = [built]
        for shard in [Shard(index: 1, count: 1), Shard(index: 1, count: 2), Shard(index: 2, count: 2)] {
            keys.insert(try await Self.shortcut(fixture, shard: shard).key)
        }
        #expect(keys.count == 4, "a shard's key differs from the whole catalog's and from other shards'")

        let image = fixture.folder.file("images/beta.png")
        try TestImage.write(try TestImage.solid(width: 60, height: 90, [40, 90, 201]), to: image)
        let edited = try await Self.shortcut(fixture)
        #expect(edited.key != nil && edited.key != built && !edited.isUpToDate)
        let report = try await fixture.build()
        #expect(report.cards.filter { $0.status == .rendered }.map(\.id) == ["beta"])
    }

    @Test("A build with a failed card records nothing, so the failure is reported again every time")
    func failureRecordsNothing() async throws {
        let fixture = try BuilderTests.fixture()
        try Data("not an image".utf8).write(to: fixture.folder.file("images/text.png"))
        fixture.cards.append(["id": "text", "image": "images/text.png", "title": "T", "description": "D"])
        for _ in 0..<2 {
            let report = try await fixture.build()
            #expect(report.failures.map(\.id) == ["text"] && report.count(.failed) == 1)
            #expect(try await Self.shortcut(fixture).isUpToDate == false)
        }
        // A missing image leaves no key at all.
        fixture.cards[3]["image"] = "images/missing.png"
        #expect(try await Self.shortcut(fixture).key == nil)
        #expect(try await fixture.build().failures.map(\.field) == ["image"])
    }

    @Test("A build found up to date leaves the action-cache index as it was, for the next edit")
    func upToDateKeepsIndex() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        try await fixture.build()
        let index = fixture.cache.appendingPathComponent("ac-index")
        let before = try Data(contentsOf: index)
        #expect(try await Self.shortcut(fixture).isUpToDate)
        try await fixture.build()
        #expect(try Data(contentsOf: index) == before)
    }
}
