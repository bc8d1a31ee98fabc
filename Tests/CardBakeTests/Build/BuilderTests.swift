import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
import CardBakeFetch
@testable import CardBakeManifest
@testable import CardBakeRender
import Synchronization
import Testing
import Vips

/// A catalog of generated images in a temporary folder, built in-process.
final class BuildFixture {
    let folder: TemporaryDirectory
    var cards: [[String: String]] = []
    var style: [String: Any] = ["scales": [1, 2]]
    /// More top-level members of the catalog (`remoteImages`, `locales`).
    var members: [String: Any] = [:]
    /// Members of a card, by its ID, in place of or beside its strings (a `title` by locale).
    var cardMembers: [String: [String: Any]] = [:]

    init(images: [String: VipsImage]) throws {
        folder = try TemporaryDirectory()
        for (name, image) in images.sorted(by: { $0.key < $1.key }) {
            try TestImage.write(image, to: folder.file("images/\(name).png"))
            cards.append(["id": name, "image": "images/\(name).png", "title": "Title \(name)", "description": "About \(name)."])
        }
    }

    var catalog: URL { folder.file("catalog.json") }
    var output: URL { folder.file("Output") }
    var cache: URL { folder.file("cache") }

    func writeCatalog() throws {
        let cards = cards.map { card -> [String: Any] in
            (card as [String: Any]).merging(cardMembers[card["id"]!] ?? [:]) { _, member in member }
        }
        let json = members.merging(["version": 1, "style": style, "cards": cards]) { _, fixed in fixed }
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(to: catalog)
    }

    @discardableResult
    func build(cache: URL? = nil, useCache: Bool = true, output: URL? = nil, remoteCache: RemoteCache? = nil,
               photos: PhotoFetchSettings = PhotoFetchSettings(), maxPixels: Int = BuildRequest.defaultMaxPixels,
               events: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async throws -> BuildReport {
        try writeCatalog()
        var request = BuildRequest(catalog: catalog, output: output ?? self.output,
                                   cache: useCache ? (cache ?? self.cache) : nil, jobs: 2, maxPixels: maxPixels)
        request.remoteCache = remoteCache
        request.photos = photos
        return try await Builder(request: request).run(events: events)
    }

    var manifest: CardManifest? { CardManifest.read(from: output.appendingPathComponent(CardManifest.fileName)) }

    func outputFile(_ name: String) -> URL { output.appendingPathComponent("cards/\(name)") }
}

@Suite("Builds and the cache", .vips)
struct BuilderTests {
    static func fixture() throws -> BuildFixture {
        try BuildFixture(images: [
            "alpha": try TestImage.blocks(width: 120, height: 80),
            "beta": try TestImage.solid(width: 60, height: 90, [40, 90, 200]),
            "gamma": try TestImage.solid(width: 50, height: 50, [200, 30, 30, 128]),
        ])
    }

    @Test("A first build renders every card at every scale, and the manifest lists them in order")
    func coldBuild() async throws {
        let fixture = try Self.fixture()
        let report = try await fixture.build()
        #expect(report.count(.rendered) == 3 && report.count(.failed) == 0)
        let manifest = try #require(fixture.manifest)
        #expect(manifest.cards.map(\.id) == ["alpha", "beta", "gamma"])
        for entry in manifest.cards {
            #expect(entry.images.keys.sorted() == ["1x", "2x"])
            let image = try #require(entry.images["2x"])
            let bytes = try Data(contentsOf: fixture.output.appendingPathComponent(image.file))
            #expect(ContentDigest.sha256(bytes) == image.sha256 && bytes.count == image.bytes)
            let bitmap = try Bitmap(encoded: bytes)
            #expect(bitmap.width == 640 && Double(bitmap.height) == entry.size.height * 2)
            #expect(entry.placeholder.color.count == 7)
        }
        // A card painted from one blue (text and gradient over it) is placeholded by about that blue.
        let beta = try #require(CardColor(hex: manifest.cards.first { $0.id == "beta" }?.placeholder.color ?? ""))
        #expect(Oklab(beta).distance(to: Oklab(red: 40, green: 90, blue: 200)) < 0.1, "\(beta)")
    }

    @Test("A second build renders nothing and rewrites no file")
    func noOpRebuild() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let file = fixture.outputFile("alpha@2x.jpg")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)
        let report = try await fixture.build()
        #expect(report.count(.rendered) == 0 && report.count(.cached) == 3)
        let after = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
    }

    @Test("Editing one title re-renders that card only, reusing its background")
    func titleEdit() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        fixture.cards[1]["title"] = "A new title"
        let report = try await fixture.build()
        #expect(report.cards.map(\.status) == [.cached, .rendered, .cached])
        #expect(report.cards[1].stages?.background == .cached)
        #expect(report.cards[1].stages?.images == ["1x": .rendered, "2x": .rendered])
        #expect(fixture.manifest?.cards[1].title == "A new title")
    }

    @Test("Each rendered card's report says why: new, which inputs changed (fonts apart from style), or the cache lacked it")
    func renderReasons() async throws {
        let fixture = try Self.fixture()
        let first = try await fixture.build()
        #expect(first.cards.map(\.reason) == ["new card", "new card", "new card"])

        fixture.cards[0]["title"] = "Another title"
        fixture.style["blur"] = ["radius": 12]
        let second = try await fixture.build()
        #expect(second.cards[0].reason == "title or description changed; style changed")
        #expect(second.cards[1].reason == "style changed")

        let entry = try #require(fixture.manifest?.cards[2].images["2x"])
        try FileManager.default.removeItem(at: try #require(try Self.casFile(for: entry.sha256, in: fixture.cache)))
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent(entry.file))
        let third = try await fixture.build()
        #expect(third.cards.map(\.status) == [.cached, .cached, .rendered])
        #expect(third.cards[2].reason == "not in the cache, or its cache entry was damaged")

        fixture.style["description"] = ["font": "DejaVu Sans"]
        let fourth = try await fixture.build()
        #expect(fourth.cards.map(\.reason) == ["font changed", "font changed", "font changed"])
    }

    @Test("Changing an image's bytes in place re-renders it, even within the same second")
    func imageEdit() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let image = fixture.folder.file("images/beta.png")
        let attributes = try FileManager.default.attributesOfItem(atPath: image.path)
        try TestImage.write(try TestImage.solid(width: 60, height: 90, [40, 90, 201]), to: image)
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: image.path)
        let report = try await fixture.build()
        #expect(report.cards.map(\.status) == [.cached, .rendered, .cached])
        #expect(report.cards[1].stages?.background == .rendered)
    }

    @Test("A card removed from the catalog loses its files and manifest entry; other files stay")
    func prune() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let foreign = fixture.outputFile("notes.txt")
        try Data("mine".utf8).write(to: foreign)
        fixture.cards.remove(at: 0)
        let report = try await fixture.build()
        #expect(report.removed == ["cards/alpha@1x.jpg", "cards/alpha@2x.jpg"])
        #expect(!FileManager.default.fileExists(atPath: fixture.outputFile("alpha@1x.jpg").path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect(fixture.manifest?.cards.map(\.id) == ["beta", "gamma"])
    }

    @Test("A corrupt cache entry is never served: the card is rendered again")
    func corruptBlob() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let entry = try #require(fixture.manifest?.cards.first?.images["1x"])
        let blob = try #require(try Self.casFile(for: entry.sha256, in: fixture.cache))
        var bytes = try Data(contentsOf: blob)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: blob)
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent(entry.file))
        let report = try await fixture.build()
        #expect(report.cards[0].status == .rendered)
        let rebuilt = try Data(contentsOf: fixture.output.appendingPathComponent(entry.file))
        #expect(ContentDigest.sha256(rebuilt) == entry.sha256)
    }

    @Test("Two clean builds give byte-identical manifests and images")
    func determinism() async throws {
        let fixture = try Self.fixture()
        let second = fixture.folder.file("Output2")
        try await fixture.build(cache: fixture.folder.file("cacheA"))
        try await fixture.build(cache: fixture.folder.file("cacheB"), output: second)
        let manifest = try Data(contentsOf: fixture.output.appendingPathComponent(CardManifest.fileName))
        #expect(manifest == (try Data(contentsOf: second.appendingPathComponent(CardManifest.fileName))))
        for file in try #require(fixture.manifest).files {
            #expect(try Data(contentsOf: fixture.output.appendingPathComponent(file))
                == Data(contentsOf: second.appendingPathComponent(file)), "\(file) differs")
        }
    }

    @Test("A card that cannot be built is reported with its field; the others are built")
    func failingCards() async throws {
        let fixture = try Self.fixture()
        fixture.cards[0]["image"] = "images/missing.png"
        try Data("not an image".utf8).write(to: fixture.folder.file("images/text.png"))
        fixture.cards.append(["id": "text", "image": "images/text.png", "title": "T", "description": ""])
        let planned = Mutex<[String]>([])
        let report = try await fixture.build(events: { event in
            if case let .planned(total, toRender, failed) = event {
                planned.withLock { $0.append("\(total) cards: \(toRender) to render, \(failed) failed") }
            }
        })
        #expect(report.cards.map(\.status) == [.failed, .rendered, .rendered, .failed])
        // The undecodable image fails as it renders, however soon: it is one of the cards to render, and
        // only the missing one failed planning.
        #expect(planned.withLock { $0 } == ["4 cards: 3 to render, 1 failed"])
        #expect(report.cards[0].location == "cards[0] (\"alpha\").image")
        #expect(report.cards[0].reason?.contains("missing.png") == true)
        #expect(report.cards[3].reason?.contains("cannot decode image") == true)
        #expect(fixture.manifest?.cards.map(\.id) == ["beta", "gamma"])
    }

    @Test("An unknown font family fails the cards that use it")
    func unknownFont() async throws {
        let fixture = try Self.fixture()
        fixture.style["title"] = ["font": "No Such Family 123"]
        let report = try await fixture.build()
        #expect(report.count(.failed) == 3)
        #expect(report.cards[0].field == "style.title")
        #expect(report.cards[0].reason?.contains("No Such Family 123") == true)
    }

    @Test("Without a cache everything is rendered and no cache folder is left")
    func noCache() async throws {
        let fixture = try Self.fixture()
        try await fixture.build(useCache: false)
        let report = try await fixture.build(useCache: false)
        #expect(report.count(.rendered) == 3)
        #expect(!FileManager.default.fileExists(atPath: fixture.cache.path))
    }

    /// The file holding a content-addressed blob, wherever the store keeps it.
    static func casFile(for digest: ContentDigest, in cache: URL) throws -> URL? {
        let enumerator = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent == digest.description { return url }
        }
        return nil
    }
}

@Suite("How workers and libvips threads share the cores")
struct ThreadSharingTests {
    @Test("Cores are shared among the cards rendering at once; each pipeline gets at least one thread",
          arguments: [(workers: 1, cores: 2, threads: 2), (workers: 2, cores: 2, threads: 1),
                      (workers: 3, cores: 2, threads: 1), (workers: 2, cores: 8, threads: 4),
                      (workers: 0, cores: 4, threads: 4)])
    func threadsPerPipeline(workers: Int, cores: Int, threads: Int) {
        #expect(Builder.threadsPerPipeline(workers: workers, cores: cores) == threads)
    }
}
