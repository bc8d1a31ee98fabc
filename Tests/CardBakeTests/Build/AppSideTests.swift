import Foundation
@testable import CardBake
@testable import CardBakeCache
import CardBakeKit
import Testing

/// What the pipeline writes, read as an app reads it: through `CardBakeKit`.
@Suite("The app's side of a build", .vips)
struct AppSideTests {
    @Test("The kit reads the manifest the pipeline wrote, and verifies every file with its own SHA-256")
    func roundTrip() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let url = fixture.output.appendingPathComponent(CardManifest.fileName)
        // The kit checks every page with its own SHA-256.
        let reader = try ManifestReader(contentsOf: url)
        let manifest = try CardManifest(reading: reader)
        #expect(manifest == fixture.manifest)
        let written = try Data(contentsOf: url)
        var pages: [Data] = []
        #expect(try manifest.written { pages.append($0); return PortableSHA256.hash($0) } == written,
                "the kit's types write the bytes the pipeline wrote")
        #expect(try Set(pages.map { ManifestPaging.file(for: ContentDigest.sha256($0)) }) == reader.pageFiles())

        for card in try reader.cards(in: 0..<reader.count) {
            #expect(card.scales == [1, 2])
            #expect(card.image(forScreenScale: 3)?.file == "cards/\(card.id)@2x.jpg")
            #expect(card.placeholder.decodedThumbHash != nil, "\(card.id): \(card.placeholder.thumbhash)")
            for image in card.images.values {
                try image.verifyFile(in: fixture.output)
                let data = try Data(contentsOf: fixture.output.appendingPathComponent(image.file))
                #expect(PortableSHA256.hash(data) == ContentDigest.sha256(data), "\(image.file)")
            }
        }

        let damaged = fixture.outputFile("beta@2x.jpg")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damaged)
        let image = try #require(reader.card(id: "beta")?.images["2x"])
        #expect(throws: CardManifest.VerificationError.wrongDigest(file: image.file, expected: image.sha256,
                                                                   found: ContentDigest.sha256(bytes))) {
            try image.verifyFile(in: fixture.output)
        }
    }

    @Test("A rebuild takes each card's placeholder from the cache: nothing is measured again")
    func placeholderFromCache() async throws {
        let fixture = try BuilderTests.fixture()
        try await fixture.build()
        let built = try #require(fixture.manifest)

        // Given facts in the cache that measuring could never give, and no manifest in the output
        // folder, so the build cannot be skipped as a whole
        let records = RecordCache(store: try DiskArtifactStore(root: fixture.cache))
        try FileManager.default.removeItem(at: fixture.cache.appendingPathComponent(CacheWorkspace.indexFile))
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent(CardManifest.fileName))
        for entry in built.cards {
            let planted = CardManifest.Placeholder(color: "#010203", thumbhash: "planted-\(entry.id)", dataURL: "data:,")
            try await records.save(CardFacts(width: entry.size.width, height: entry.size.height, placeholder: planted),
                                   for: entry.key)
        }

        // When
        let report = try await fixture.build()

        // Then every card comes from the cache, placeholder included
        #expect(report.count(.cached) == 3 && report.count(.rendered) == 0)
        let rebuilt = try #require(fixture.manifest)
        #expect(rebuilt.cards.map(\.placeholder.thumbhash) == built.cards.map { "planted-\($0.id)" })
        #expect(rebuilt.cards.allSatisfy { $0.placeholder.color == "#010203" && $0.placeholder.dataURL == "data:," })
    }
}
