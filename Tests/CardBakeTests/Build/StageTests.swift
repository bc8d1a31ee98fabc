import Foundation
@testable import CardBake
@testable import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Testing

/// Each stage of the pipeline on its own, over an in-memory store.
@Suite("Pipeline stages", .vips)
struct StageTests {
    /// One planned card of a generated image, an in-memory store, an output folder and a pool.
    final class Stages {
        let folder: TemporaryDirectory
        let card: Card
        let plan: CardPlan
        let store: any ArtifactStoring
        let statCache = StatCache(loadingFrom: nil)
        let pool = WorkerPool(threads: 2)

        /// Over `store`, or else a new in-memory store.
        init(store: (any ArtifactStoring)? = nil) throws {
            self.store = store ?? InMemoryArtifactStore()
            let fixture = try BuildFixture(images: ["alpha": try TestImage.blocks(width: 120, height: 80)])
            try fixture.writeCatalog()
            folder = fixture.folder
            card = try CatalogLoader.load(from: fixture.catalog).cards[0]
            plan = try Planner(statCache: statCache, fonts: FontResolver()).plan(card).get()
        }

        deinit { pool.shutDown() }

        var records: RecordCache { RecordCache(store: store) }
        var output: OutputFolder { OutputFolder(directory: folder.file("Output"), statCache: statCache) }
        var lookUp: CacheLookUp { CacheLookUp(records: records, outputs: output) }
        var rendering: CardRendering { CardRendering(pool: pool, records: records, maxPixels: 1 << 26, budget: PaintBudget(room: 2)) }
        var writer: OutputWriter {
            OutputWriter(folder: output, records: records, journal: WriteJournal(folder: folder.file("Output"), areas: []))
        }

        /// Renders and stores the card once.
        func renderAndStore() async throws -> CachedCard {
            let rendered = try await rendering.render(await lookUp.lookUp(plan), cancellation: Cancellation())
            return try await CardStoring(records: records).store(rendered)
        }
    }

    @Test("Planning hashes the image and keys the card without decoding it")
    func plan() throws {
        let stages = try Stages()
        #expect(stages.plan.inputs.image == (try ContentDigest.sha256(ofFileAt: stages.card.image)))
        #expect(stages.plan.key == stages.plan.inputs.cardKey(scales: stages.card.style.scales))
    }

    @Test("With a rebuild memo, an unchanged card gets the plan kept from the build before; a card whose title, image or planner settings changed is planned again")
    func keptPlans() throws {
        let stages = try Stages()
        let memo = RebuildMemo()
        func plan(_ card: Card, strict: Bool = false) throws -> CardPlan {
            memo.startBuild()
            return try Planner(statCache: stages.statCache, fonts: FontResolver(), strict: strict, memo: memo.plans).plan(card).get()
        }
        let first = try plan(stages.card)
        #expect(try plan(stages.card) === first)
        var retitled = stages.card
        retitled.title = "Another title"
        let changed = try plan(retitled)
        #expect(changed !== first && changed.inputs.text != first.inputs.text)
        #expect(try plan(retitled, strict: true) !== changed)
        try Data("not the image planned before".utf8).write(to: stages.card.image)
        #expect(try plan(retitled).inputs.image == (try ContentDigest.sha256(ofFileAt: stages.card.image)))
    }

    @Test("An empty store: the look-up finds nothing, rendering makes every scale, storing keeps them all")
    func renderWhatIsMissing() async throws {
        let stages = try Stages()
        let found = await stages.lookUp.lookUp(stages.plan)
        #expect(found.facts == nil && found.images.isEmpty && found.cached == nil)
        #expect(found.missingScales == stages.card.style.scales)

        let rendered = try await stages.rendering.render(found, cancellation: Cancellation())
        #expect(rendered.bitmaps.keys.sorted() == stages.card.style.scales)
        #expect(rendered.newBackground != nil && rendered.stages.background == .rendered)

        let stored = try await CardStoring(records: stages.records).store(rendered)
        let again = await stages.lookUp.lookUp(stages.plan)
        #expect(again.cached?.images == stored.images && again.facts == stored.facts)
    }

    @Test("A bitmap the store lost is missing at look-up, and rendering it again reuses the cached background")
    func lostBlob() async throws {
        let cache = try TemporaryDirectory()
        let disk = try DiskArtifactStore(root: cache.url)
        let stages = try Stages(store: disk)
        let stored = try await stages.renderAndStore()
        try FileManager.default.removeItem(at: disk.blobURL(for: try #require(stored.images[1]).blob))

        let found = await stages.lookUp.lookUp(stages.plan)
        #expect(found.missingScales == [1])
        #expect(found.cached == nil)

        let rendered = try await stages.rendering.render(found, cancellation: Cancellation())
        #expect(rendered.bitmaps.keys.sorted() == [1])
        #expect(rendered.stages.background == .cached && rendered.newBackground == nil)
        let restored = try await CardStoring(records: stages.records).store(rendered)
        #expect(restored.images == stored.images)
    }

    @Test("Writing puts each bitmap in the output folder with the stored bytes, and the entry names them")
    func write() async throws {
        let stages = try Stages()
        let stored = try await stages.renderAndStore()
        let entry = stored.entry
        try await stages.writer.write(CardFile.files(of: entry))
        #expect(entry.id == stages.card.id && entry.key == stages.plan.key)
        for scale in stages.card.style.scales {
            let image = try #require(entry.images[CardManifest.scaleName(scale)])
            let bytes = try Data(contentsOf: stages.output.directory.appendingPathComponent(image.file))
            #expect(ContentDigest.sha256(bytes) == image.sha256 && image.sha256 == stored.images[scale]?.blob)
        }
        // The output now holds the bitmaps, so the look-up needs no blob from the store.
        let emptied = CacheLookUp(records: RecordCache(store: stages.store), outputs: stages.output)
        #expect(await emptied.lookUp(stages.plan).cached != nil)
    }

    @Test("A blob lost between look-up and write fails the card with advice, and writes nothing")
    func blobLostBeforeWrite() async throws {
        let stages = try Stages()
        let stored = try await stages.renderAndStore()
        let writer = OutputWriter(folder: stages.output, records: RecordCache(store: InMemoryArtifactStore()),
                                  journal: WriteJournal(folder: stages.folder.file("Output"), areas: []))
        let error = try await #require(throws: OutputError.self) { try await writer.write(CardFile.files(of: stored.entry)) }
        #expect(error.description.contains("run the build again"))
        #expect(!FileManager.default.fileExists(atPath: stages.output.path(of: OutputFolder.file(for: stages.card, scale: 1))))
    }
}
