import Foundation
@testable import CardBake
@testable import CardBakeCache
import CardBakeManifest
import Testing

/// A bitmap's pixels depend on the largest scale of its card (the source is decoded once, for it), so
/// the bitmaps a cache serves after the list of scales changes must be those a build from scratch makes.
@Suite("Changing the list of scales", .vips)
struct ScaleListChangeTests {
    @Test("Dropping the largest scale serves every remaining scale as a build from scratch renders it")
    func droppingTheLargestScale() async throws {
        // Given a card built at 1x–3x from a source wider than the 3x card, so each largest scale decodes it differently
        let fixture = try BuildFixture(images: ["wide": try TestImage.blocks(width: 1200, height: 800)])
        fixture.style = ["scales": [1, 2, 3]]
        try await fixture.build()

        // When the same catalog drops 3x, built over that cache and from scratch
        fixture.style = ["scales": [1, 2]]
        try await fixture.build()
        let scratch = fixture.folder.file("Scratch")
        try await fixture.build(useCache: false, output: scratch)

        // Then
        let manifest = try #require(fixture.manifest)
        for file in manifest.files.sorted() {
            let cached = try ContentDigest.sha256(ofFileAt: fixture.output.appendingPathComponent(file))
            let fresh = try ContentDigest.sha256(ofFileAt: scratch.appendingPathComponent(file))
            #expect(cached == fresh, "\(file) differs from a build from scratch")
        }
        let fromScratch = try #require(CardManifest.read(from: scratch.appendingPathComponent(CardManifest.fileName)))
        #expect(manifest.cards.map(\.key) == fromScratch.cards.map(\.key))
        #expect(manifest.cards.map(\.placeholder) == fromScratch.cards.map(\.placeholder))
    }
}
