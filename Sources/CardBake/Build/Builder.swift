import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation
import Vips

/// Runs a build as five stages, each a function of the previous stages' results, one per card in catalog order:
///
/// 1. plan: each card's inputs and keys, from content digests (no pixel decoded);
/// 2. look up: what the cache holds of each card (records, and bitmaps present and intact);
/// 3. render: what the cache lacks, on the worker pool;
/// 4. store: what was rendered, into the cache, as each card finishes;
/// 5. write: the output folder and the manifest, in one final step.
///
/// Memory stays flat as the catalog grows: stages 1 and 2 run a window of cards at a time, a card
/// to render is planned again as it renders, and each card's manifest entry goes to an
/// ``EntrySpool`` on disk as soon as it is known, from which stage 5 writes the files, the manifest
/// and the gallery. What a build holds of every card is its catalog entry and its report line.
///
/// A catalog built before with the same inputs, into an output folder still as that build left it,
/// is recognised as a whole (``WholeBuild``) before the stages, when that was the last build to run
/// its stages with the cache: nothing is planned or written, and the catalog is not even parsed when
/// that build kept its outline and the file's bytes are unchanged (``CatalogOutline``).
///
/// A card that fails is reported and left out; the others are built. Cancelling stops the workers
/// and leaves the output folder untouched (finished cards stay in the cache for the next build).
public struct Builder: Sendable {
    public let request: BuildRequest
    /// What the last build of this process worked out per card, for a process that builds again and
    /// again (an edit loop); nil for one build, which then holds no card after its stage.
    public let memo: RebuildMemo?

    /// The name and version this build writes into manifests.
    public static let version = "0.1.0"
    public static var libvipsVersion: String { Vips.version }
    public static var generator: String { "cardbake \(version) (libvips \(libvipsVersion))" }
    /// What `cardbake --version` prints: the name, version and every library that writes the bytes.
    public static var versionLine: String { "cardbake \(version) (\(LibraryVersions.linked))" }

    public init(request: BuildRequest, memo: RebuildMemo? = nil) {
        self.request = request
        self.memo = memo
    }

    /// Starts libvips and lays out a line of text, which a build that renders needs and one found up to
    /// date as a whole never does: `watch` calls it beside its first build so that the first edit's
    /// rebuild does not wait. Failures are left for the build that renders to report.
    public static func warmUp() {
        try? Vips.start()
        _ = try? TextCoverage.layOut("Aa", font: TextFont(family: "sans-serif"), size: 12)
    }

    /// Builds the catalog, holding the output and cache folders locked against other cardbake
    /// processes from planning to the end. Throws ``CatalogError`` when the catalog does not validate
    /// (nothing is rendered), ``BuildCancelled`` when cancelled, ``LockTimeout`` when another process
    /// holds a folder for longer than the request waits, and a ``FileSystemError`` when a file cannot be
    /// written: that stops the build (before the output folder is touched, if rendering hit it).
    public func run(cancellation: Cancellation = Cancellation(),
                    events: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async throws -> BuildReport {
        let start = ContinuousClock.now
        async let readAhead = ReadAhead(for: request)
        var reading = try CatalogReading(request: request, parse: loadCatalog, outline: \.source)
        let lock = try WorkspaceLock(building: request, cancellation: cancellation, events: events)
        defer { lock.release() }
        let read = await readAhead
        let workspace = try CacheWorkspace(request: request, savedStatCache: read.savedStatCache,
                                           warn: { events(.warning($0)) })
        defer { workspace.close() }
        let pool = WorkerPool(threads: request.jobs)
        defer { pool.shutDown() }
        try reading.parseUnlessKept(statCache: workspace.statCache)
        var photos = await fetchPhotos(&reading, workspace: workspace, events: events)
        let bench = try Workbench(request: request, workspace: workspace, pool: pool,
                                  installedFonts: read.installedFonts, reading: &reading)

        var wholeBuild = bench.wholeBuild(of: bench.source, request: request)
        if let wholeBuild, await isUpToDateAsAWhole(wholeBuild, bench) {
            return try await reportUpToDate(bench, reading: reading, photos: photos, start: start, events: events)
        }
        // A kept outline stood for the catalog, whose photos given as URLs are fetched now it is parsed.
        let photosFetchedLate = reading.parsed == nil && !bench.source.outline.photoURLCards.isEmpty
        if photosFetchedLate {
            _ = try reading.catalog()
            photos = await fetchPhotos(&reading, workspace: workspace, events: events)
        }
        let catalog = try parsedCatalog(&reading, bench, wholeBuild: &wholeBuild, photosFetchedLate: photosFetchedLate)
        let missingTranslations = catalog.catalog.missingTranslations
        for missing in missingTranslations {
            events(.warning("\(request.catalog.relativePath): \(missing)"))
        }
        let coverageMemo = TextCoverageMemo(store: workspace.textCoverage, installedFonts: bench.installedFonts)
        memo?.startBuild()
        let planner = Planner(statCache: workspace.statCache, fonts: bench.fonts, strict: request.strict,
                              coverageMemo: coverageMemo, memo: memo?.plans, photoFailures: photos?.failures ?? [:])
        let spool = try EntrySpool(in: workspace.scratchDirectory, cards: catalog.cards.count,
                                   figures: request.writesGallery, memo: memo?.spooledForms)
        var results = try await cardResults(of: catalog.cards, planner: planner, coverageMemo: coverageMemo,
                                            records: bench.records, output: bench.output, spool: spool, pool: pool,
                                            cancellation: cancellation, events: events)
        let written = try await writeOutput(catalog.cards, locales: catalog.catalog.locales, from: spool, with: catalog.writer, bench)
        for (position, failure) in written.cards.failures {
            results[position] = .failed(failure)
        }
        try ShardRecord.update(in: request.output, shard: request.shard, catalog: catalog.whole.digest,
                               cards: { catalog.whole.cards.map(\.id) }, settings: request.settingsDigest,
                               manifest: written.manifest)
        try await bench.assetCatalog?.write(written.cards.positions.map(spool.entry(at:)), from: bench.output)
        // A card with warnings is not up to date as part of a whole: the next build plans it, and warns
        // again; so with missing translations, which the next build must parse the catalog to tell.
        if let wholeBuild, missingTranslations.isEmpty,
           !results.contains(where: { $0.status == .failed || $0.warnings != nil }) {
            await record(wholeBuild, of: catalog.outline, written: written, photos: photos, bench)
        }
        let remoteTraffic = await workspace.finishRemote()
        let collected = await workspace.finishBuild()
        return BuildReport(cards: results, seconds: (ContinuousClock.now - start).seconds, removed: written.removed,
                           parallelism: parallelism, collected: collected, remoteCache: remoteTraffic,
                           photos: photos?.traffic, inputs: Self.inputs(of: catalog.outline, request: request, fonts: bench.fonts))
    }

    /// Fetches the photos the build's cards give as URLs (``CardPhotos``), into the parsed catalog;
    /// nil when it gives none or is not parsed (a kept outline stands for it). Call holding the cache.
    private func fetchPhotos(_ reading: inout CatalogReading<LoadedCatalog>, workspace: CacheWorkspace,
                             events: @escaping @Sendable (BuildEvent) -> Void) async -> CardPhotos? {
        guard var loaded = reading.parsed else { return nil }
        let photos = await CardPhotos.resolve(&loaded.catalog, in: workspace, request: request, events: events)
        if photos != nil { reading.replaceParsed(with: loaded) }
        return photos
    }

    // MARK: What run does before and after the stages

    /// The folders, stores and workers a build holds from taking its locks to its end, and the
    /// catalog's outline as the build found it.
    private struct Workbench {
        let workspace: CacheWorkspace
        let pool: WorkerPool
        let records: RecordCache
        let output: OutputFolder
        let source: CatalogOutline.Source
        /// The output folder's writer for `source`'s outline; made first, as it cleans up after a
        /// build that was killed while writing the folder.
        let cleaningWriter: OutputWriter
        let assetCatalog: AssetCatalogWriter?
        let fonts = FontResolver()
        let installedFonts: ContentDigest

        init(request: BuildRequest, workspace: CacheWorkspace, pool: WorkerPool, installedFonts: ContentDigest,
             reading: inout CatalogReading<LoadedCatalog>) throws {
            self.workspace = workspace
            self.pool = pool
            self.installedFonts = installedFonts
            records = RecordCache(store: workspace.store)
            output = OutputFolder(directory: request.output, statCache: workspace.statCache)
            source = try reading.source(statCache: workspace.statCache)
            cleaningWriter = OutputWriter(folder: output, records: records, journal: .output(output, outline: source.outline))
            assetCatalog = try request.xcassets.map {
                // A build with an asset catalog keeps no outline: its catalog is parsed.
                try AssetCatalogWriter(directory: $0, statCache: workspace.statCache, cards: try reading.catalog().catalog.cards)
            }
        }

        /// What a build of `source`'s cards as a whole reads; nil when it is not from a file.
        func wholeBuild(of source: CatalogOutline.Source, request: BuildRequest) -> WholeBuild? {
            WholeBuild(source.outline, catalogDigest: source.digest, request: request, statCache: workspace.statCache,
                       fonts: fonts, installedFonts: installedFonts)
        }
    }

    /// Whether the output folder is still as the last build of these inputs left it. Only when that
    /// was the last build that ran its stages (its record is in the index), so that the index, which
    /// garbage collection protects, stays that of the catalog built.
    private func isUpToDateAsAWhole(_ wholeBuild: WholeBuild, _ bench: Workbench) async -> Bool {
        guard let recorded = bench.workspace.store.savedActionResult(for: wholeBuild.key).flatMap(ContentDigest.init(cacheBytes:))
        else { return false }
        return await wholeBuild.isUpToDate(bench.source.outline, in: bench.output, recorded: recorded, pool: bench.pool)
    }

    /// The shortcut: the report of a build found up to date as a whole, having written only the
    /// asset catalog and the shard record where they are missing or changed.
    private func reportUpToDate(_ bench: Workbench, reading: CatalogReading<LoadedCatalog>, photos: CardPhotos?,
                                start: ContinuousClock.Instant, events: @Sendable (BuildEvent) -> Void) async throws -> BuildReport {
        let source = bench.source
        events(.planned(total: source.outline.cards.count, toRender: 0, failed: 0))
        try await bench.assetCatalog?.write(bench.output.readManifest()?.cards ?? [], from: bench.output)
        if let manifestDigest = try? bench.output.statCache.digest(ofFileAt: bench.output.manifestURL) {
            try ShardRecord.update(in: request.output, shard: request.shard, catalog: source.digest,
                                   cards: {
                                       guard let parsed = reading.parsed else { preconditionFailure("a shard's build keeps no outline") }
                                       return parsed.whole.cards.map(\.id)
                                   },
                                   settings: request.settingsDigest, manifest: manifestDigest)
        }
        if reading.parsed != nil {
            keepOutline(source, photos: photos, bench)
        }
        bench.workspace.finishWholeBuild()
        return BuildReport(cards: source.outline.cachedResults,
                           seconds: (ContinuousClock.now - start).seconds, removed: [],
                           parallelism: parallelism, remoteCache: await bench.workspace.finishRemote(),
                           photos: photos?.traffic ?? source.outline.cachedPhotos,
                           inputs: Self.inputs(of: source.outline, request: request, fonts: bench.fonts))
    }

    /// The catalog the stages build, its outline and the output folder's writer for it.
    private struct ParsedCatalog {
        let whole: Catalog
        /// The cards this build makes: the whole catalog's, or a shard's.
        let catalog: Catalog
        let outline: CatalogOutline
        let writer: OutputWriter
        var cards: [Card] { catalog.cards }
    }

    /// The catalog parsed, if a kept outline stood for it so far. The build is of the bytes parsed: if
    /// the file changed since the stat cache looked, the outline is made again and no whole build is
    /// recorded; if its photos were fetched after the outline stood for it, the outline and the whole
    /// build are made again from the photos fetched.
    private func parsedCatalog(_ reading: inout CatalogReading<LoadedCatalog>, _ bench: Workbench,
                               wholeBuild: inout WholeBuild?, photosFetchedLate: Bool) throws -> ParsedCatalog {
        let built = try reading.catalog()
        guard built.whole.digest != bench.source.digest || photosFetchedLate else {
            return ParsedCatalog(whole: built.whole, catalog: built.catalog, outline: bench.source.outline,
                                 writer: bench.cleaningWriter)
        }
        let source = CatalogOutline.Source(built.catalog, digest: built.whole.digest)
        wholeBuild = source.digest == bench.source.digest ? bench.wholeBuild(of: source, request: request) : nil
        return ParsedCatalog(whole: built.whole, catalog: built.catalog, outline: source.outline,
                             writer: OutputWriter(folder: bench.output, records: bench.records,
                                                  journal: .output(bench.output, outline: source.outline)))
    }

    /// What the write stage and the manifest and gallery after it left in the output folder.
    private struct WrittenOutput {
        let cards: WrittenCards
        let removed: [String]
        let manifest: ContentDigest
        /// The files made from the cards' entries, with their digests: the gallery's, then the
        /// manifest's pages (``WholeBuild/derivedFiles(in:pages:)``'s order).
        let derived: [(file: String, digest: ContentDigest)]
    }

    /// Stage 5 and what follows it, as one replacement of the output folder's files: each card's
    /// files, the manifest, and the gallery (or its removal).
    private func writeOutput(_ cards: [Card], locales: CatalogLocales?, from spool: EntrySpool, with writer: OutputWriter,
                             _ bench: Workbench) async throws -> WrittenOutput {
        // In the manifest's order: the gallery is made from the manifest alone.
        let locales = locales.map { CardManifest.Card.listingOrder(source: $0.source, translated: $0.translated) } ?? []
        let written = try await writer.replacingFiles {
            let written = try await Self.write(cards, from: spool, with: writer, width: request.jobs)
            let manifest = try writer.replaceManifest(
                generator: Self.generator, count: written.positions.count,
                entry: { try spool.pageEntry(at: written.positions[$0]) },
                files: { Set(written.positions.flatMap { OutputFolder.files(for: cards[$0]) }) })
            let gallery = GalleryWriter(folder: bench.output, records: bench.records, journal: writer.journal)
            let positions = written.positions
            let galleryCards = GalleryCards(count: positions.count, scales: written.scales, locales: locales) { body in
                for position in positions {
                    try body(try spool.figure(at: position))
                }
            }
            let derived = try await request.writesGallery
                ? gallery.update(cards: galleryCards, generator: Self.generator, digest: manifest.digest) : gallery.remove()
            return WrittenOutput(cards: written, removed: manifest.removed, manifest: manifest.digest,
                                 derived: derived + manifest.pages)
        }
        writer.journal.finish()
        return written
    }

    /// Records the build as a whole, for the next build's shortcut, and keeps the catalog's outline.
    /// Only that shortcut depends on it: a record that cannot be stored is not an error, and one a
    /// remote cache already holds (another machine's build of these inputs) is not sent again.
    private func record(_ wholeBuild: WholeBuild, of outline: CatalogOutline, written: WrittenOutput, photos: CardPhotos?,
                        _ bench: Workbench) async {
        var files = written.cards.files
        files.add(written.derived)
        let outputs = WholeBuild.outputDigest(manifest: written.manifest, files: files)
        if await bench.records.record(ContentDigest.self, for: wholeBuild.key) != outputs {
            try? await bench.records.save(outputs, for: wholeBuild.key)
        }
        // The next build asks for this record before anything else.
        bench.workspace.store.keepAtHead(wholeBuild.key)
        keepOutline(CatalogOutline.Source(outline: outline, digest: bench.source.digest), photos: photos, bench)
    }

    /// The files a build of the cards of `outline` read: the catalog, their images, and the fonts once resolved.
    private static func inputs(of outline: CatalogOutline, request: BuildRequest, fonts: FontResolver) -> Set<URL> {
        Set([request.catalog.standardizedFileURL] + outline.imagePaths.map {
            URL(fileURLWithPath: $0, isDirectory: false)
        }).union(fonts.files)
    }

    /// The catalog as the request builds it, refused before the cache is held if it cannot be built:
    /// it does not validate, asks for a format libvips cannot write, or the asset catalog is misplaced.
    private func loadCatalog() throws -> LoadedCatalog {
        let whole = try request.loadCatalog()
        let catalog = request.shard.map(whole.restricted(to:)) ?? whole
        try catalog.checkFormatsAvailable()
        if let xcassets = request.xcassets {
            try AssetCatalog.checkDestination(xcassets, output: request.output, catalog: catalog)
        }
        return LoadedCatalog(whole: whole, catalog: catalog)
    }

    /// A catalog parsed for a build: the whole file's, and the cards the request builds (a shard's).
    private struct LoadedCatalog {
        let whole: Catalog
        var catalog: Catalog

        var source: CatalogOutline.Source { CatalogOutline.Source(catalog, digest: whole.digest) }
    }

    /// Keeps the outline of the catalog just found built as a whole, for the next build to take instead
    /// of parsing it (``CatalogOutline/Saved``), if the catalog file still has the bytes built. Looking
    /// the file up puts it in the stat cache, where the next build finds its digest. A catalog that
    /// gives photos as URLs keeps it until the first is due for revalidation: the build after parses
    /// it and revalidates them.
    private func keepOutline(_ source: CatalogOutline.Source, photos: CardPhotos?, _ bench: Workbench) {
        let until = photos.map { $0.freshUntil ?? .distantPast }
        guard CatalogOutline.isKept(for: request), until.map({ $0 > Date() }) ?? true, let cache = request.cache,
              let digest = source.digest, (try? bench.workspace.statCache.digest(ofFileAt: request.catalog)) == digest
        else { return }
        CatalogOutline.Saved.keep(source.outline, key: CatalogOutline.key(catalog: request.catalog, digest: digest,
                                                                          settings: request.settingsDigest),
                                  catalog: request.catalog, in: cache, until: until)
    }

    /// The CPUs found and the cards rendered at once, for the report.
    private var parallelism: BuildReport.Parallelism {
        BuildReport.Parallelism(cpus: UsableCPUs.current.count, detected: UsableCPUs.current.detected,
                                jobs: request.jobs)
    }

    /// Threads for each libvips pipeline when `workers` cards render at once: the CPUs this process
    /// may use shared among the workers, at least one. A full build (more workers than CPUs) gets one
    /// thread per pipeline and its parallelism from the cards; a rebuild of one card gets every CPU.
    static func threadsPerPipeline(workers: Int, cores: Int = UsableCPUs.current.count) -> Int {
        max(1, cores / max(1, workers))
    }

    // MARK: Stages

    /// Cards planned and looked up at once: enough to keep the pool busy, few enough that their
    /// plans and look-ups are a small part of a build's memory whatever the catalog's size.
    static let window = 512

    /// Stages 1 to 4: each card's line in the report, in catalog order, with the manifest entry of
    /// each card cached or rendered put in `spool`. A build holds no more of a card than its line:
    /// stages 1 and 2 run a ``window`` of cards at a time, and a card to render is planned and
    /// looked up again as it renders. Stages 3 and 4 run beside them: a window's cards to render go
    /// to the renderers as soon as it is looked up, so an edit's card renders while the rest of the
    /// catalog is planned.
    private func cardResults(of cards: [Card], planner: Planner, coverageMemo: TextCoverageMemo, records: RecordCache,
                             output: OutputFolder, spool: EntrySpool, pool: WorkerPool, cancellation: Cancellation,
                             events: @escaping @Sendable (BuildEvent) -> Void) async throws -> [BuildReport.CardResult] {
        let lookUp = CacheLookUp(records: records, outputs: output)
        let lines = ReportLines(for: cards)
        let progress = RenderProgress(events)
        let stop = Cancellation(following: cancellation)
        // A card to render goes to the renderers as soon as its window is looked up, so that rendering
        // (and libvips' start) overlaps planning the rest of the catalog.
        let (toRender, renderers) = AsyncStream.makeStream(of: (position: Int, found: PartlyCached?).self)
        async let rendered: Void = renderAndStore(toRender, of: cards, into: lines, planner: planner, lookUp: lookUp,
                                                  spool: spool, pool: pool, stop: stop, progress: progress)
        // Counted here, not from the report's lines: a card that fails to render before planning ends is
        // one of the cards to render, not a failure of planning.
        var (queued, unplannable) = (0, 0)
        do {
            for start in stride(from: 0, to: cards.count, by: Self.window) {
                let window = Array(cards[start..<min(start + Self.window, cards.count)])
                let plans = await Self.plan(window, planner: planner, pool: pool)
                coverageMemo.keep()
                let found = await Self.lookUp(plans, with: lookUp, width: request.jobs)
                let cached = found.map { $0?.cached }
                // The window's cards to render go first: the renderers start before its cached entries are spooled.
                for (offset, (found, cached)) in zip(found, cached).enumerated() {
                    if let found, cached == nil {
                        renderers.yield((start + offset, PartlyCached.of(found)))
                        queued += 1
                    }
                }
                for (offset, (card, (planned, cached))) in zip(window, zip(plans, cached)).enumerated() {
                    if case .failure(let failure) = planned {
                        lines.set(.failed(failure), at: start + offset)
                        unplannable += 1
                    } else if let cached {
                        try spool.put(cached.entry, at: start + offset)
                        lines.set(.cached(card, warnings: cached.plan.warnings), at: start + offset)
                    }
                }
            }
        } catch {
            stop.cancel()
            renderers.finish()
            _ = try? await rendered
            throw error
        }
        renderers.finish()
        progress.planned(total: cards.count, toRender: queued, failed: unplannable)
        try await rendered
        try cancellation.check()
        return lines.all
    }

    /// Stage 1: every card's plan, or why it cannot be built, on the worker pool; in the cards' order.
    static func plan(_ cards: [Card], planner: Planner, pool: WorkerPool) async -> [Result<CardPlan, CardFailure>] {
        await pool.map(cards) { planner.plan($0) }.map { $0! }
    }

    /// Stage 2: what the cache holds of every planned card, `width` cards at a time; in the plans'
    /// order, nil where the plan failed.
    static func lookUp(_ plans: [Result<CardPlan, CardFailure>], with lookUp: CacheLookUp,
                       width: Int) async -> [CardLookUp?] {
        await plans.concurrentMap(width: width) { planned -> CardLookUp? in
            guard case .success(let plan) = planned else { return nil }
            return await lookUp.lookUp(plan)
        }
    }

    /// Stages 3 and 4 for the cards `toRender` gives by their positions in `cards`, with what the
    /// look-up found of each: plans each again, renders what the cache lacks on the pool and stores
    /// it, `jobs` cards at a time, puts its entry in `spool` and its line of the report in `lines`.
    /// libvips starts when the first card comes, so a build that renders nothing never starts it. A
    /// store that fails to write stops the build with that error; a card that fails is its own result.
    private func renderAndStore(_ toRender: AsyncStream<(position: Int, found: PartlyCached?)>, of cards: [Card],
                                into lines: ReportLines, planner: Planner, lookUp: CacheLookUp, spool: EntrySpool,
                                pool: WorkerPool, stop: Cancellation, progress: RenderProgress) async throws {
        var waiting = toRender.makeAsyncIterator()
        guard let first = await waiting.next() else { return }
        // A failure to start is reported here, before the workers use libvips.
        try Vips.start()
        let rendering = CardRendering(pool: pool, records: lookUp.records, maxPixels: request.maxPixels,
                                      budget: PaintBudget(workers: request.jobs, cpus: UsableCPUs.current.count))
        // What parsing the catalog and planning freed goes back before the workers paint: their large
        // buffers are mapped afresh rather than carved from it, so it would add to the peak.
        rendering.freeMemory.giveBack()
        let storing = CardStoring(records: lookUp.records)
        let previous = Task { PreviousEntries(lookUp.outputs.manifestInPlace) }
        // The write failure of the first card in catalog order that had one.
        var stoppedBy: (position: Int, error: FileSystemError)?
        var (taken, pending) = (0, Optional(first))
        let next = { () async -> (position: Int, found: PartlyCached?)? in
            var card = pending.take()
            if card == nil { card = await waiting.next() }
            guard let card else { return nil }
            // A rebuild of one card gives its pipelines every CPU; a build of many, one thread each.
            // Past `jobs` cards the share no longer changes.
            taken += 1
            if taken <= self.request.jobs {
                Vips.setThreadsPerPipeline(Self.threadsPerPipeline(workers: taken))
            }
            return card
        }
        await forEachConcurrently(width: request.jobs, next: next) { position, partly -> RenderAttempt in
            let card = cards[position]
            let clock = ContinuousClock.now
            let attempt: RenderAttempt
            do {
                let plan = try await pool.run { try planner.plan(card).get() }
                // Looked up again when the look-up stage found nothing or an input changed since.
                let found = if let found = partly?.lookUp(for: plan) { found } else { await lookUp.lookUp(plan) }
                let result: BuildReport.CardResult
                if let cached = found.cached {
                    try spool.put(cached.entry, at: position)
                    result = .cached(card, warnings: plan.warnings)
                } else {
                    let rendered = try await rendering.render(found, cancellation: stop)
                    try spool.put(try await storing.store(rendered).entry, at: position)
                    let change = await previous.value.change(to: plan)
                    result = .rendered(card, seconds: (ContinuousClock.now - clock).seconds, stages: rendered.stages,
                                       reason: change.description, warnings: plan.warnings)
                }
                attempt = RenderAttempt(result, at: position)
            } catch {
                if error is FileSystemError { stop.cancel() }
                attempt = RenderAttempt(.failed(CardFailure(card: card, error: error),
                                                seconds: (ContinuousClock.now - clock).seconds),
                                        at: position, stoppedBy: error)
            }
            if !(attempt.error is BuildCancelled) {
                progress.finished(attempt.result)
            }
            return attempt
        } receive: { _, attempt in
            lines.set(attempt.result, at: attempt.position)
            if let error = attempt.error as? FileSystemError, stoppedBy.map({ attempt.position < $0.position }) ?? true {
                stoppedBy = (attempt.position, error)
            }
        }
        if let stoppedBy { throw stoppedBy.error }
    }

    /// Stage 5: every card's files, `width` cards at a time from a ``window`` of the cards with an
    /// entry in `spool`; a card whose files cannot be written fails, and a write failure of the file
    /// system stops the build.
    static func write(_ cards: [Card], from spool: EntrySpool, with writer: OutputWriter,
                      width: Int) async throws -> WrittenCards {
        var written = WrittenCards()
        let positions = cards.indices.filter(spool.holds)
        for start in stride(from: 0, to: positions.count, by: window) {
            let window = Array(positions[start..<min(start + window, positions.count)])
            let results = await window.concurrentMap(width: width) { position -> Result<[CardFile], any Error> in
                do {
                    let files = try spool.files(at: position)
                    try await writer.write(files)
                    return .success(files)
                } catch {
                    return .failure(error)
                }
            }
            for (position, result) in zip(window, results) {
                switch result {
                case .success(let files):
                    written.add(files, at: position)
                case .failure(let error as FileSystemError) where error.isWriteFailure:
                    throw error
                case .failure(let error):
                    written.failures.append((position, CardFailure(card: cards[position], error: error)))
                }
            }
        }
        return written
    }
}

/// What the look-up stage found of a card the cache lacks in part, without its plan: its keys and the
/// records found, in each locale. A card never built has none (`of(_:)` is nil), so of most cards
/// waiting to render in a large build the queue holds only their position; such a card is looked up
/// again as it renders.
final class PartlyCached: Sendable {
    private let locales: [Found]

    private struct Found: Sendable {
        let key: ContentDigest
        let facts: CardFacts?
        let images: [Int: RenderedImageRecord]
    }

    /// What `found` holds of the card; nil when it found nothing in any locale.
    static func of(_ found: CardLookUp) -> PartlyCached? {
        let locales = ([found] + found.translations).map { Found(key: $0.plan.key, facts: $0.facts, images: $0.images) }
        return locales.allSatisfy({ $0.facts == nil && $0.images.isEmpty }) ? nil : PartlyCached(locales)
    }

    private init(_ locales: [Found]) {
        self.locales = locales
    }

    /// The look-up of `plan`, when it has the keys of the plan looked up in every locale.
    func lookUp(for plan: CardPlan) -> CardLookUp? {
        let plans = plan.inEveryLocale
        guard plans.count == locales.count, zip(plans, locales).allSatisfy({ $0.key == $1.key }) else { return nil }
        var found = zip(plans, locales).map { CardLookUp(plan: $0, facts: $1.facts, images: $1.images) }
        let source = found.removeFirst()
        return CardLookUp(plan: source.plan, facts: source.facts, images: source.images, translations: found)
    }
}

/// What the write stage wrote: the cards whose files are in place, in catalog order, and those that failed.
struct WrittenCards {
    /// Catalog positions of the cards written, whose entries make the manifest.
    private(set) var positions: [Int] = []
    /// Every scale of the cards written.
    private(set) var scales: Set<Int> = []
    /// Their files and digests, in catalog order and each card's scales in its style's order.
    private(set) var files = WholeBuild.OutputFiles()
    var failures: [(position: Int, failure: CardFailure)] = []

    /// Notes the card at `position` written with `cardFiles`, smallest scale first as its style's
    /// scales are (``CardFile/files(of:)``).
    mutating func add(_ cardFiles: [CardFile], at position: Int) {
        positions.append(position)
        for file in cardFiles {
            scales.insert(file.scale)
            files.add(file.file, digest: file.digest)
        }
    }
}

/// One card's way through rendering and storing, with the error that stopped it, if any.
private struct RenderAttempt: Sendable {
    let result: BuildReport.CardResult
    /// The card's position in the catalog.
    let position: Int
    let error: (any Error)?

    init(_ result: BuildReport.CardResult, at position: Int, stoppedBy error: (any Error)? = nil) {
        self.result = result
        self.position = position
        self.error = error
    }
}
