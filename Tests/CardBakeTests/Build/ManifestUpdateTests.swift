import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Manifest updates and cache records", .vips)
struct ManifestUpdateTests {
    static func fixture() throws -> BuildFixture {
        try BuildFixture(images: [
            "alpha": try TestImage.blocks(width: 120, height: 80),
            "beta": try TestImage.solid(width: 60, height: 90, [40, 90, 200]),
        ])
    }

    func manifestURL(_ fixture: BuildFixture) -> URL { fixture.output.appendingPathComponent(CardManifest.fileName) }

    @Test("A no-op build leaves the manifest file alone: same inode, same bytes")
    func noOpKeepsTheManifest() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let before = try FileStatus(path: manifestURL(fixture).fileSystemPath)
        let bytes = try Data(contentsOf: manifestURL(fixture))

        try await fixture.build()

        #expect(try FileStatus(path: manifestURL(fixture).fileSystemPath) == before)
        #expect(try Data(contentsOf: manifestURL(fixture)) == bytes)
    }

    @Test("A manifest edited or deleted since the last build is written again, byte for byte", arguments: [true, false])
    func damagedManifestIsRewritten(delete: Bool) async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let bytes = try Data(contentsOf: manifestURL(fixture))
        if delete {
            try FileManager.default.removeItem(at: manifestURL(fixture))
        } else {
            try writeFile("{}", to: manifestURL(fixture))
        }

        let report = try await fixture.build()

        #expect(report.count(.rendered) == 0)
        #expect(try Data(contentsOf: manifestURL(fixture)) == bytes)
    }

    @Test("Removing a card rewrites the manifest and removes its files even right after a no-op build")
    func removalAfterNoOp() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        try await fixture.build()
        fixture.cards.removeAll { $0["id"] == "beta" }

        let report = try await fixture.build()

        #expect(report.removed == ["cards/beta@1x.jpg", "cards/beta@2x.jpg"])
        #expect(fixture.manifest?.cards.map(\.id) == ["alpha"])
    }

    @Test("The manifest's bytes, whose digest names its gallery, change with every stored property of it and of an entry")
    func encodingCoversTheEntries() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let manifest = try #require(fixture.manifest)
        let other = ContentDigest.sha256(Data())
        let manifestEdits: [String: (inout CardManifest) -> Void] = [
            "generator": { $0.generator += "+" },
            "cards": { $0.cards.reverse() },
        ]
        var entryEdits: [String: (inout CardManifest.Entry) -> Void] = [
            "card.id": { $0.id += "-" },
            "card.title": { $0.title += "!" },
            "card.description": { $0.description += "!" },
            "card.size.width": { $0.size.width += 1 },
            "card.size.height": { $0.size.height += 1 },
            "key": { $0.key = other },
            "card.placeholder.color": { $0.placeholder.color = "#000000" },
            "card.placeholder.thumbhash": { $0.placeholder.thumbhash += "A" },
            "card.placeholder.dataURL": { $0.placeholder.dataURL += "A" },
            "card.locale": { $0.locale = LocaleTag("en") },
            "card.localizations": { $0.localizations = [:] },
            "localeBuilds": { $0.localeBuilds = [:] },
            "inputs.image": { $0.inputs.image = other },
            "inputs.text": { $0.inputs.text = other },
            "inputs.style": { $0.inputs.style = other },
            "inputs.fonts": { $0.inputs.fonts = other },
            "inputs.renderer": { $0.inputs.renderer = other },
        ]
        for scale in ["1x", "2x"] {
            entryEdits["card.images.\(scale).file"] = { $0.images[scale]?.file += "x" }
            entryEdits["card.images.\(scale).width"] = { $0.images[scale]?.width += 1 }
            entryEdits["card.images.\(scale).height"] = { $0.images[scale]?.height += 1 }
            entryEdits["card.images.\(scale).bytes"] = { $0.images[scale]?.bytes += 1 }
            entryEdits["card.images.\(scale).sha256"] = { $0.images[scale]?.sha256 = other }
        }
        entryEdits["card.images (a scale removed)"] = { $0.images["2x"] = nil }

        let walked = ["CardBakeManifest.CardManifest", "CardBakeManifest.CardInputs"]
        #expect(StoredProperties.leafPaths(of: manifest, walking: walked).sorted() == manifestEdits.keys.sorted())
        let entryPaths = StoredProperties.leafPaths(of: manifest.cards[0], walking: walked)
        #expect(entryPaths.contains("card.images.2x.sha256"))
        #expect(entryPaths.filter { entryEdits[$0] == nil } == [])
        for (name, edit) in manifestEdits {
            var edited = manifest
            edit(&edited)
            #expect(try edited.rootDigest != manifest.rootDigest, "\(name)")
        }
        for (name, edit) in entryEdits {
            var edited = manifest
            edit(&edited.cards[0])
            #expect(try edited.rootDigest != manifest.rootDigest, "\(name)")
        }
        #expect(try CardManifest(generator: manifest.generator, cards: manifest.cards).rootDigest == manifest.rootDigest)
    }

    @Test("Image and card records survive their binary forms, and bytes of any other form are a miss")
    func imageRecordBytes() async throws {
        let record = RenderedImageRecord(blob: ContentDigest.sha256(Data("png".utf8)), bytes: 123_456, width: 960, height: 1542)
        #expect(RenderedImageRecord(cacheBytes: record.cacheBytes) == record)
        let facts = CardFacts(width: 320, height: 514.5, placeholder: CardManifest.Placeholder(
            color: "#A85529", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3", dataURL: "data:image/png;base64,iVBORw0KGgo="))
        #expect(CardFacts(cacheBytes: facts.cacheBytes) == facts)
        #expect(CardFacts(cacheBytes: record.cacheBytes) == nil)
        #expect(RenderedImageRecord(cacheBytes: facts.cacheBytes) == nil)
        #expect(RenderedImageRecord(cacheBytes: record.cacheBytes + Data([0])) == nil)

        let json = Data(#"{"blob":"\#(record.blob)","bytes":123456,"width":960,"height":1542}"#.utf8)
        #expect(RenderedImageRecord(cacheBytes: json) == nil)
        #expect(RenderedImageRecord(cacheBytes: record.cacheBytes.prefix(40)) == nil)
        #expect(ContentDigest(cacheBytes: record.cacheBytes) == nil)
    }
}
