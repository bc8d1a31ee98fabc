import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
import Testing

@Suite("The catalog's outline, kept for the next build found up to date", .vips)
struct CatalogOutlineTests {
    /// A request for the fixture's catalog as it is on disk (``BuildFixture/build`` writes it again).
    static func request(_ fixture: BuildFixture) -> BuildRequest {
        BuildRequest(catalog: fixture.catalog, output: fixture.output, cache: fixture.cache, jobs: 2)
    }

    /// What reading the fixture's catalog as a build does comes to: the source found holding the cache,
    /// and how many times the catalog was parsed on the way.
    static func reading(_ fixture: BuildFixture) throws -> (source: CatalogOutline.Source, parses: Int) {
        let request = request(fixture)
        var parses = 0
        var reading = try CatalogReading(request: request, parse: {
            parses += 1
            return try request.loadCatalog()
        }, outline: { CatalogOutline.Source($0, digest: $0.digest) })
        let statCache = StatCache(loadingFrom: fixture.cache.appendingPathComponent(CacheWorkspace.statCacheFile))
        let source = try reading.source(statCache: statCache)
        return (source, parses)
    }

    @Test("A kept outline reads back as it was written; a damaged, cut or foreign file reads as none")
    func roundTrip() throws {
        let folder = try TemporaryDirectory()
        let catalog = folder.file("catalog.json")
        try Data("{}".utf8).write(to: catalog)
        let locales = [LocaleTag("ar")!, LocaleTag("pt-BR")!]
        let outline = CatalogOutline(cards: [
            .init(id: "ünïcode-1", index: 0, scales: [1, 2, 3], fileExtension: "png"),
            .init(id: "b", index: 1, scales: [4], fileExtension: "webp"),
            .init(id: "b2", index: 2, scales: [4], fileExtension: "webp"),
            .init(id: "ünïcode-3", index: 3, scales: [1, 2, 3], fileExtension: "png"),
        ], imagePaths: ["/images/a.jpg", "/images/ß.png"],
           fontRequests: [FontRequest(.family("Noto Sans Bold")), FontRequest(.family("Lato"), weight: 300, italic: true),
                          FontRequest(.file(URL(fileURLWithPath: "/fonts/Lato.ttf", isDirectory: false)), weight: 900)],
           translatedLocales: locales, photoURLCards: [0..<1, 2..<4])
        let key = ContentDigest.sha256(Data("key".utf8))
        CatalogOutline.Saved.keep(outline, key: key, catalog: catalog, in: folder.url, until: nil)
        let saved = try #require(CatalogOutline.Saved(in: folder.url, describing: catalog))
        #expect(saved.outline == outline && saved.key == key)
        #expect(saved.outline.files(of: saved.outline.cards[1]) == ["cards/b@4x.webp", "cards/ar/b@4x.webp", "cards/pt-BR/b@4x.webp"])

        let file = folder.file(CatalogOutline.Saved.fileName)
        let good = try Data(contentsOf: file)
        var flipped = good
        flipped[good.count / 2] ^= 1
        for damaged in [flipped, good.dropLast(), Data("cardbake-catalog-outline 1\n".utf8) + good.dropFirst(27), Data()] {
            try damaged.write(to: file)
            #expect(CatalogOutline.Saved(in: folder.url, describing: catalog) == nil)
        }
        try good.write(to: file)
        #expect(CatalogOutline.Saved(in: folder.url, describing: catalog) != nil)
        try Data("x".utf8).write(to: catalog)
        #expect(CatalogOutline.Saved(in: folder.url, describing: catalog) == nil, "the catalog's status changed")

        // An outline whose cards are not at their positions (a shard's) is not kept.
        try FileManager.default.removeItem(at: file)
        let shard = CatalogOutline(cards: [.init(id: "c", index: 3, scales: [1], fileExtension: "png")],
                                   imagePaths: [], fontRequests: [])
        CatalogOutline.Saved.keep(shard, key: key, catalog: catalog, in: folder.url, until: nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        // One kept until a photo is due reads as none from then on.
        let now = Date()
        CatalogOutline.Saved.keep(outline, key: key, catalog: catalog, in: folder.url, until: now + 60)
        #expect(CatalogOutline.Saved(in: folder.url, describing: catalog, now: now)?.outline == outline)
        #expect(CatalogOutline.Saved(in: folder.url, describing: catalog, now: now + 60) == nil)
    }

    @Test("An outline read back names the images and fonts as the parsed catalog does, odd paths included")
    func sameRequestsAsParsed() throws {
        let folder = try TemporaryDirectory()
        let catalog = folder.file("sub/../catalog.json")
        let json = #"""
        {"version": 1, "style": {"scales": [3, 1], "format": "webp", "title": {"fontFile": "fonts/../fonts/T itle.ttf"}},
         "cards": [{"id": "a", "image": "images/./a.png", "title": "A", "description": "a"},
                   {"id": "b", "image": "./images/a.png", "title": "B", "description": "b",
                    "style": {"description": {"font": "DejaVu Serif"}, "scales": [2]}}]}
        """#
        let parsed = CatalogOutline(try CatalogLoader.decode(Data(json.utf8), file: catalog))
        try FileManager.default.createDirectory(at: folder.file("sub"), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: catalog)
        CatalogOutline.Saved.keep(parsed, key: ContentDigest.sha256(Data()), catalog: catalog, in: folder.url, until: nil)
        let read = try #require(CatalogOutline.Saved(in: folder.url, describing: catalog)).outline
        #expect(read.cards == parsed.cards && read.imagePaths == parsed.imagePaths)
        #expect(read.fontRequests.map(\.description) == parsed.fontRequests.map(\.description))
        #expect(parsed.imagePaths.count == 1 && parsed.fontRequests.count == 3)
        #expect(read.cards.map(read.files(of:)) == [["cards/a@1x.webp", "cards/a@3x.webp"], ["cards/b@2x.webp"]])
    }

    @Test("A kept outline answers only for the catalog bytes and the settings it was kept for")
    func keyedByBytesAndSettings() throws {
        let folder = try TemporaryDirectory()
        let catalog = folder.file("catalog.json")
        try Data("{\"cards\": []}".utf8).write(to: catalog)
        var request = BuildRequest(catalog: catalog, output: folder.file("Output"), cache: folder.url)
        let outline = CatalogOutline(cards: [], imagePaths: [], fontRequests: [])
        let key = CatalogOutline.key(catalog: catalog, digest: ContentDigest.sha256(try Data(contentsOf: catalog)),
                                     settings: request.settingsDigest)
        CatalogOutline.Saved.keep(outline, key: key, catalog: catalog, in: folder.url, until: nil)
        let saved = try #require(CatalogOutline.Saved.kept(for: request))
        #expect(saved.source(for: request, statCache: StatCache(loadingFrom: nil))?.outline == outline)

        request.overrides = try StyleOverrides(scales: [2])
        #expect(saved.source(for: request, statCache: StatCache(loadingFrom: nil)) == nil)
        request.overrides = StyleOverrides()
        try Data("{\"cards\": [ ]}".utf8).write(to: catalog)
        #expect(saved.source(for: request, statCache: StatCache(loadingFrom: nil)) == nil)
        request.photos.mode = .refresh
        #expect(CatalogOutline.Saved.kept(for: request) == nil, "--refresh revalidates the catalog's photos")
        request.photos.mode = .normal
        request.shard = Shard(index: 1, count: 1)
        #expect(CatalogOutline.Saved.kept(for: request) == nil)
    }

    @Test("After a build, the next build and check of the same file take the outline instead of parsing it")
    func noParseWhenUpToDate() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let parsed = try CatalogOutline(Self.request(fixture).loadCatalog())
        let (source, parses) = try Self.reading(fixture)
        #expect(parses == 0 && source.outline == parsed)

        let report = try await Builder(request: Self.request(fixture)).run()
        #expect(report.count(.cached) == 3 && report.cards.map(\.index) == [0, 1, 2])
        #expect(report.inputs.contains(fixture.folder.file("images/beta.png").standardizedFileURL))
        #expect(try await Checker(request: Self.request(fixture)).run().isEmpty)
        #expect(try Self.reading(fixture).parses == 0)
    }

    @Test("A catalog touched without a change is parsed once, then its outline is kept again")
    func touchedCatalog() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        try fixture.writeCatalog()
        #expect(try Self.reading(fixture).parses == 1)
        let report = try await Builder(request: Self.request(fixture)).run()
        #expect(report.count(.cached) == 3)
        #expect(try Self.reading(fixture).parses == 0)
    }

    @Test("An edited catalog is parsed and built, even one edited to the same size and modification time")
    func editedCatalog() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let before = try FileStatus(path: fixture.catalog.fileSystemPath)
        fixture.cards[1]["title"] = "Title BETA"
        try fixture.writeCatalog()
        var times = [timespec(tv_sec: Int(before.modificationTime / 1_000_000_000),
                              tv_nsec: Int(before.modificationTime % 1_000_000_000))]
        times.append(times[0])
        #expect(utimensat(AT_FDCWD, fixture.catalog.fileSystemPath, times, 0) == 0)
        let after = try FileStatus(path: fixture.catalog.fileSystemPath)
        #expect(after.size == before.size && after.modificationTime == before.modificationTime)

        #expect(try Self.reading(fixture).parses == 1)
        let report = try await Builder(request: Self.request(fixture)).run()
        #expect(report.cards.filter { $0.status == .rendered }.map(\.id) == ["beta"])
        #expect(fixture.manifest?.cards[1].title == "Title BETA")
        #expect(try Self.reading(fixture).parses == 0)
    }

    @Test("A catalog saved invalid after a build is refused, not answered from its outline")
    func invalidCatalog() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        try Data("{\"version\": 1, \"cards\": [".utf8).write(to: fixture.catalog)
        await #expect(throws: CatalogError.self) { try await Builder(request: Self.request(fixture)).run() }
        await #expect(throws: CatalogError.self) { try await Checker(request: Self.request(fixture)).run() }
    }

    @Test("A shard's build, and one with an asset catalog, keep no outline; nor one that is not up to date")
    func keptOnlyForWholeBuilds() async throws {
        let fixture = try BuilderTests.fixture()
        try fixture.writeCatalog()
        var request = Self.request(fixture)
        request.shard = Shard(index: 1, count: 2)
        _ = try await Builder(request: request).run()
        let file = fixture.cache.appendingPathComponent(CatalogOutline.Saved.fileName)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        request.shard = nil
        request.xcassets = fixture.folder.file("Cards.xcassets")
        _ = try await Builder(request: request).run()
        #expect(!FileManager.default.fileExists(atPath: file.path))

        try Data("not an image".utf8).write(to: fixture.folder.file("images/beta.png"))
        #expect(try await Builder(request: Self.request(fixture)).run().failures.map(\.id) == ["beta"])
        #expect(!FileManager.default.fileExists(atPath: file.path), "a build with a failed card records no whole build")
    }
}
