import CardBakeCache
import CardBakeCatalog
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
/// A catalog built before with the same inputs, into an output folder still as that build left it,
/// is recognised as a whole (``WholeBuild``) before the stages, when that was the last build to run
/// its stages with the cache: nothing is planned or written.
///
/// A card that fails is reported and left out; the others are built. Cancelling stops the workers
/// and leaves the output folder untouched (finished cards stay in the cache for the next build).
public struct Builder: Sendable {
    public let request: BuildRequest

    /// The name and version this build writes into manifests.
    public static let version = "0.1.0"
    public static var libvipsVersion: String { Vips.version }
    public static var generator: String { "cardbake \(version) (libvips \(libvipsVersion))" }

    public init(request: BuildRequest) {
        self.request = request
    }

    /// Starts libvips and lays out a line of text, the two things a build found up to date as a whole
    /// never does, so that the next build that renders (an edit loop's first) does not wait for them.
    /// Failures are left for that build to report.
    public static func warmUp() {
        try? Vips.start()
        _ = try? TextCoverage.layOut("Aa", family: "sans-serif", size: 12)
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
        let wholeCatalog = try request.loadCatalog()
        let catalog = request.shard.map(wholeCatalog.restricted(to:)) ?? wholeCatalog
        try catalog.checkFormatsAvailable()
        if let xcassets = request.xcassets {
            try AssetCatalog.checkDestination(xcassets, output: request.output, catalog: catalog)
        }
        let lock = try WorkspaceLock(building: request, cancellation: cancellation, events: events)
        defer { lock.release() }
        let read = await readAhead
        let workspace = try CacheWorkspace(request: request, savedStatCache: read.savedStatCache,
                                           warn: { events(.warning($0)) })
        defer { workspace.close() }
        let pool = WorkerPool(threads: request.jobs)
        defer { pool.shutDown() }
        let records = RecordCache(store: workspace.store)
        let output = OutputFolder(directory: request.output, statCache: workspace.statCache)
        // Made first: it cleans up after a build that was killed while writing the folder.
        let writer = OutputWriter(folder: output, records: records, journal: .output(output, cards: catalog.cards))
        let assetCatalog = try request.xcassets.map {
            try AssetCatalogWriter(directory: $0, statCache: workspace.statCache, cards: catalog.cards)
        }
        let fonts = FontResolver()

        let installedFonts = read.installedFonts
        let wholeBuild = WholeBuild(catalog: catalog, request: request, statCache: workspace.statCache, fonts: fonts,
                                    installedFonts: installedFonts)
        // Only when the last build that ran its stages was this one (its record is in the index), so
        // that the index, which garbage collection protects, stays that of the catalog built.
        if let wholeBuild, let recorded = workspace.store.savedActionResult(for: wholeBuild.key).flatMap(ContentDigest.init(cacheBytes:)),
           await wholeBuild.isUpToDate(catalog, in: output, recorded: recorded, pool: pool) {
            events(.planned(total: catalog.cards.count, toRender: 0, failed: 0))
            try await assetCatalog?.write(output.manifestInPlace.manifest?.cards ?? [], from: output)
            if let manifestDigest = try? output.statCache.digest(ofFileAt: output.manifestURL) {
                try ShardRecord.update(in: request.output, shard: request.shard, catalog: wholeCatalog,
                                       settings: request.settingsDigest, manifest: manifestDigest)
            }
            workspace.finishWholeBuild()
            return BuildReport(cards: catalog.cards.map(BuildReport.CardResult.cached),
                               seconds: (ContinuousClock.now - start).seconds, removed: [],
                               parallelism: parallelism, remoteCache: await workspace.finishRemote(),
                               inputs: Self.inputs(of: catalog, request: request, fonts: fonts))
        }

        let coverageMemo = TextCoverageMemo(store: workspace.textCoverage, installedFonts: installedFonts)
        let planner = Planner(statCache: workspace.statCache, fonts: fonts, strict: request.strict, coverageMemo: coverageMemo)
        let outcomes = try await outcomes(of: catalog.cards, planner: planner, coverageMemo: coverageMemo,
                                          records: records, output: output, pool: pool,
                                          cancellation: cancellation, events: events)

        let (written, removed, manifestDigest, derived) = try await writer.replacingFiles {
            let written = try await Self.write(outcomes, with: writer, width: request.jobs)
            let manifest = CardManifest(generator: Self.generator, cards: written.entries)
            let (digest, removed) = try writer.replaceManifest(with: manifest)
            let gallery = GalleryWriter(folder: output, records: records, journal: writer.journal)
            let derived = try await request.writesGallery ? gallery.update(for: manifest, digest: digest) : gallery.remove()
            return (written, removed, digest, derived)
        }
        writer.journal.finish()
        let final = written.outcomes
        try ShardRecord.update(in: request.output, shard: request.shard, catalog: wholeCatalog,
                               settings: request.settingsDigest, manifest: manifestDigest)
        try await assetCatalog?.write(written.entries, from: output)
        // A card with warnings is not up to date as part of a whole: the next build plans it, and warns again.
        if let wholeBuild, !final.contains(where: { $0.cachedCard?.plan.warnings.isEmpty != true }) {
            // Only the next build's shortcut depends on it: a record that cannot be stored is not an error.
            // One a remote cache already holds (another machine's build of these inputs) is not sent again.
            let outputs = WholeBuild.outputDigest(manifest: manifestDigest, entries: written.entries,
                                                  of: catalog.cards, derived: derived)
            if await records.record(ContentDigest.self, for: wholeBuild.key) != outputs {
                try? await records.save(outputs, for: wholeBuild.key)
            }
        }
        let remoteTraffic = await workspace.finishRemote()
        let collected = workspace.finishBuild()
        return BuildReport(cards: zip(catalog.cards, final).map { $1.result(for: $0) },
                           seconds: (ContinuousClock.now - start).seconds, removed: removed,
                           parallelism: parallelism, collected: collected, remoteCache: remoteTraffic,
                           inputs: Self.inputs(of: catalog, request: request, fonts: fonts))
    }

    /// The files a build of `catalog` read, once its fonts are resolved.
    private static func inputs(of catalog: Catalog, request: BuildRequest, fonts: FontResolver) -> Set<URL> {
        Set([request.catalog.standardizedFileURL] + catalog.cards.map(\.image)).union(fonts.files)
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

    /// Stages 1 to 4: each card's outcome, in catalog order. The stages' tables, one slot per card,
    /// are dropped on return, so the write stage holds only the outcomes.
    private func outcomes(of cards: [Card], planner: Planner, coverageMemo: TextCoverageMemo, records: RecordCache,
                          output: OutputFolder, pool: WorkerPool, cancellation: Cancellation,
                          events: @escaping @Sendable (BuildEvent) -> Void) async throws -> [CardOutcome] {
        let plans = await Self.plan(cards, planner: planner, pool: pool)
        coverageMemo.keep()
        let found = await Self.lookUp(plans, with: CacheLookUp(records: records, outputs: output), width: request.jobs)
        let toRender = found.indices.filter { found[$0].map { $0.cached == nil } ?? false }
        events(.planned(total: cards.count, toRender: toRender.count, failed: found.count { $0 == nil }))
        let renderedCards = toRender.map { found[$0]! }
        let rendered = try await renderAndStore(renderedCards, records: records, pool: pool,
                                                changes: Task { Self.changes(of: renderedCards, since: output.manifestInPlace) },
                                                cancellation: cancellation, events: events)
        var renderedAt = [Result<RenderedOutcome, CardFailure>?](repeating: nil, count: cards.count)
        for (position, result) in zip(toRender, rendered) {
            renderedAt[position] = result
        }
        return cards.indices.map { Self.outcome(planned: plans[$0], found: found[$0], rendered: renderedAt[$0]) }
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

    /// Why each card to render is rendered, in the cards' order, from the manifest in place (read
    /// only when there is one to render).
    static func changes(of cards: [CardLookUp], since manifest: ManifestInPlace) -> [CardChange] {
        guard !cards.isEmpty else { return [] }
        let previous = Dictionary((manifest.manifest?.cards ?? []).map { ($0.id, $0) },
                                  uniquingKeysWith: { first, _ in first })
        return cards.map { card in
            previous[card.plan.card.id].map { CardChange.between($0, and: card.plan, filesIn: nil) ?? .notCached } ?? .new
        }
    }

    /// Stages 3 and 4: renders each card on the pool and stores it as soon as it is done, `jobs`
    /// cards at a time. A store that fails to write stops the build with that error; a card that
    /// fails is its own result. `changes` (which reads the manifest in place) runs meanwhile.
    private func renderAndStore(_ cards: [CardLookUp], records: RecordCache, pool: WorkerPool,
                                changes: Task<[CardChange], Never>, cancellation: Cancellation,
                                events: @escaping @Sendable (BuildEvent) -> Void) async throws
        -> [Result<RenderedOutcome, CardFailure>] {
        guard !cards.isEmpty else { return [] }
        // libvips starts (on this thread, before the workers use it) only when there is something to render.
        try Vips.start()
        Vips.setThreadsPerPipeline(Self.threadsPerPipeline(workers: min(request.jobs, cards.count)))
        let rendering = CardRendering(pool: pool, records: records, maxPixels: request.maxPixels,
                                      budget: PaintBudget(painters: min(request.jobs, UsableCPUs.current.count)))
        let storing = CardStoring(records: records)
        let stop = Cancellation(following: cancellation)
        let done = Counter()
        let results = await cards.indices.concurrentMap(width: request.jobs) { position -> RenderAttempt in
            let card = cards[position]
            let clock = ContinuousClock.now
            let attempt: RenderAttempt
            do {
                let rendered = try await rendering.render(card, cancellation: stop)
                let stored = try await storing.store(rendered)
                attempt = RenderAttempt(.success(RenderedOutcome(
                    card: stored, stages: rendered.stages, seconds: (ContinuousClock.now - clock).seconds,
                    change: await changes.value[position])))
            } catch {
                if error is FileSystemError { stop.cancel() }
                attempt = RenderAttempt(.failure(CardFailure(card: card.plan.card, error: error)), stoppedBy: error)
            }
            if !(attempt.error is BuildCancelled) {
                let outcome = CardOutcome(attempt.result, seconds: (ContinuousClock.now - clock).seconds)
                events(.finished(outcome.result(for: card.plan.card), done: done.increment(), of: cards.count))
            }
            return attempt
        }
        for case let error as FileSystemError in results.map(\.error) { throw error }
        try cancellation.check()
        return results.map(\.result)
    }

    /// The outcome of a card from its stages' results.
    static func outcome(planned: Result<CardPlan, CardFailure>, found: CardLookUp?,
                        rendered: Result<RenderedOutcome, CardFailure>?) -> CardOutcome {
        if case .failure(let failure) = planned { return .failed(failure, seconds: 0) }
        if let cached = found?.cached { return .cached(cached) }
        guard let rendered else { preconditionFailure("every planned card is looked up, and rendered if the cache lacks it") }
        return CardOutcome(rendered, seconds: 0)
    }

    /// Stage 5: every card's files, `width` cards at a time; a card whose files cannot be written
    /// fails, and a write failure of the file system stops the build. Returns each card's final
    /// outcome and the manifest entries of those that succeeded, in catalog order.
    static func write(_ outcomes: [CardOutcome], with writer: OutputWriter,
                      width: Int) async throws -> (outcomes: [CardOutcome], entries: [CardManifest.Entry]) {
        let written = await outcomes.concurrentMap(width: width) { outcome -> Result<CardManifest.Entry, any Error>? in
            guard let card = outcome.cachedCard else { return nil }
            do {
                return .success(try await writer.write(card))
            } catch {
                return .failure(error)
            }
        }
        var final = outcomes
        var entries: [CardManifest.Entry] = []
        for (index, (outcome, result)) in zip(outcomes, written).enumerated() {
            guard let card = outcome.cachedCard?.plan.card, let result else { continue }
            switch result {
            case .success(let entry):
                entries.append(entry)
            case .failure(let error as FileSystemError) where error.isWriteFailure:
                throw error
            case .failure(let error):
                final[index] = .failed(CardFailure(card: card, error: error), seconds: 0)
            }
        }
        return (final, entries)
    }
}

/// One card's way through rendering and storing, with the error that stopped it, if any.
private struct RenderAttempt: Sendable {
    let result: Result<RenderedOutcome, CardFailure>
    let error: (any Error)?

    init(_ result: Result<RenderedOutcome, CardFailure>, stoppedBy error: (any Error)? = nil) {
        self.result = result
        self.error = error
    }
}
