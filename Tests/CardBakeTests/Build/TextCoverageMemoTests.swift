import Foundation
@testable import CardBake
@testable import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Testing

/// Text coverage remembered in the action cache between builds.
@Suite("Text coverage memo", .vips)
struct TextCoverageMemoTests {
    let fonts = FontResolver()
    let font: ResolvedFont
    let installed = FontResolver.installedFonts()

    init() throws {
        font = try fonts.fonts(for: CardStyle()).title
    }

    @Test("A record keeps the files and the missing characters, and refuses bytes that are not one")
    func recordRoundTrip() {
        let record = TextCoverageRecord(files: ["/usr/share/fonts/a.ttf", "/fonts/ü/b.otf"], missing: ["\u{10FFFD}", "☃"])
        #expect(TextCoverageRecord(cacheBytes: record.cacheBytes) == record)
        #expect(TextCoverageRecord(cacheBytes: record.cacheBytes.dropLast()) == nil)
        #expect(TextCoverageRecord(cacheBytes: Data("CBTC1".utf8)) == nil)
    }

    @Test("What one build laid out, the next takes from the index: a forged record shows it is read")
    func nextBuildReadsTheIndex() async throws {
        // Given a text laid out by one build and kept
        let base = InMemoryArtifactStore()
        let store = IndexedArtifactStore(base: base, loadingIndexFrom: nil)
        let first = TextCoverageMemo(store: store, installedFonts: installed)
        let laidOut = try first.coverage(of: "Hello", in: font, size: 20, fonts: fonts)
        #expect(laidOut.missing.isEmpty && !laidOut.fonts.isEmpty)
        first.keep()
        let key = first.key(of: "Hello", in: font, size: 20)
        #expect(store.indexedActionResult(for: key).flatMap(TextCoverageRecord.init(cacheBytes:)) == TextCoverageRecord(laidOut))
        // in the index only, nothing written to the store underneath, and the saved index has it
        #expect(await base.actionResult(for: key) == nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("text-coverage-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try store.save(to: file)
        #expect(IndexedArtifactStore(base: InMemoryArtifactStore(), loadingIndexFrom: file).indexedActionResult(for: key)
                == TextCoverageRecord(laidOut).cacheBytes)

        // When the index says something no layout would
        let forged = TextCoverageRecord(files: laidOut.fonts.map(\.file.path), missing: ["☃"])
        store.keepInIndex(forged.cacheBytes, for: key)
        let next = TextCoverageMemo(store: store, installedFonts: installed)

        // Then the next build answers from it, with the files' digests of now
        let remembered = try next.coverage(of: "Hello", in: font, size: 20, fonts: fonts)
        #expect(remembered.missing == ["☃"])
        #expect(remembered.fonts == laidOut.fonts)
    }

    @Test("Another set of installed fonts, another size or another text is laid out again")
    func keyCoversFontsSizeAndText() throws {
        let store = IndexedArtifactStore(base: InMemoryArtifactStore(), loadingIndexFrom: nil)
        let memo = TextCoverageMemo(store: store, installedFonts: installed)
        let key = memo.key(of: "Hello", in: font, size: 20)
        let otherFonts = TextCoverageMemo(store: store, installedFonts: ContentDigest.sha256(Data("other".utf8)))
        #expect(otherFonts.key(of: "Hello", in: font, size: 20) != key)
        #expect(memo.key(of: "Hello", in: font, size: 21) != key)
        #expect(memo.key(of: "Hello!", in: font, size: 20) != key)

        // A forged record under the first key does not answer for another set of installed fonts.
        store.keepInIndex(TextCoverageRecord(files: [], missing: ["☃"]).cacheBytes, for: key)
        #expect(try otherFonts.coverage(of: "Hello", in: font, size: 20, fonts: fonts).missing.isEmpty)
    }
}
