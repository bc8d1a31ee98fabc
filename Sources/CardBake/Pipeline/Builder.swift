import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation
import Vips

/// Runs a build as five stages, each a function of the previous stages' results, keyed by card id:
///
/// 1. plan: each card's inputs and keys, from content digests (no pixel decoded);
/// 2. look up: what the cache holds of each card (records, and bitmaps present and intact);
/// 3. render: what the cache lacks, on the worker pool;
/// 4. store: what was rendered, into the cache, as each card finishes;
/// 5. write: the output folder and the manifest, in one final step.
///
/// A catalog built before with the same inputs, into an output folder still as that build left it,
/// is recognised as a whole (``WholeBuild``) before the stages: nothing is planned or written.
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

    /// Builds the catalog, holding the output and cache folders locked against other cardbake
    /// processes from planning to the end. Throws ``CatalogError`` when the catalog does not validate
    /// (nothing is rendered), ``BuildCancelled`` when cancelled, ``LockTimeout`` when another process
    /// holds a folder for longer than the request waits, and a ``FileSystemError`` when a file cannot be
    /// written: that stops the build (before the output folder is touched, if rendering hit it).
    public func run(cancellation: Cancellation = Cancellation(),
                    events: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async throws -> BuildReport {
        let start = ContinuousClock.now
        let catalog = try request.loadCatalog()
        let lock = try WorkspaceLock(building: request, cancellation: cancellation, events: events)
        defer { lock.release() }
        let workspace = try CacheWorkspace(request: request)
        defer { workspace.close() }
        let pool = WorkerPool(threads: request.jobs)
        defer { pool.shutDown() }
        let records = RecordCache(store: workspace.store)
        let output = OutputFolder(directory: request.output, statCache: workspace.statCache)
        // Made first: it cleans up after a build that was killed while writing the folder.
        let writer = OutputWriter(folder: output, records: records, journal: .output(request.output, cards: catalog.cards))
        let fonts = FontResolver()

        let wholeBuild = WholeBuild(catalog: catalog, request: request, statCache: workspace.statCache, fonts: fonts)
        if let wholeBuild, await wholeBuild.isUpToDate(catalog, in: output, records: records, pool: pool) {
            events(.planned(total: catalog.cards.count, toRender: 0))
            workspace.saveStatCache()
            return BuildReport(cards: catalog.cards.map(BuildReport.CardResult.cached),
                               seconds: (ContinuousClock.now - start).seconds, removed: [])
        }

        let plans = await Self.plan(catalog.cards, planner: Planner(statCache: workspace.statCache, fonts: fonts),
                                    pool: pool)
        let found = await Self.lookUp(plans, with: CacheLookUp(records: records, outputs: output), width: request.jobs)
        let toRender = found.values.filter { $0.cached == nil }.sorted { $0.plan.card.index < $1.plan.card.index }
        events(.planned(total: catalog.cards.count, toRender: toRender.count))
        let rendered = try await renderAndStore(toRender, records: records, pool: pool,
                                                cancellation: cancellation, events: events)
        let outcomes = catalog.cards.map { card in
            Self.outcome(of: card, planned: plans[card.id], found: found[card.id], rendered: rendered[card.id])
        }

        let written = try await Self.write(outcomes, with: writer, width: request.jobs)
        let final = written.outcomes
        let manifest = CardManifest(generator: Self.generator, cards: written.entries)
        let (removed, manifestDigest) = try await writer.replaceManifest(with: manifest)
        writer.journal.finish()
        if let wholeBuild, !final.contains(where: { $0.cachedCard == nil }) {
            // Only the next build's shortcut depends on it: a record that cannot be stored is not an error.
            try? await records.save(WholeBuild.outputDigest(manifest: manifestDigest, entries: written.entries,
                                                            of: catalog.cards), for: wholeBuild.key)
        }
        workspace.saveIndexes()
        return BuildReport(cards: zip(catalog.cards, final).map { $1.result(for: $0) },
                           seconds: (ContinuousClock.now - start).seconds, removed: removed)
    }

    /// Threads for each libvips pipeline when `workers` cards render at once: the cores shared
    /// among the workers, at least one. A full build (more workers than cores) gets one thread per
    /// pipeline and its parallelism from the cards; a rebuild of one card gets every core.
    static func threadsPerPipeline(workers: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        max(1, cores / max(1, workers))
    }

    // MARK: Stages

    /// Stage 1: every card's plan, or why it cannot be built, on the worker pool.
    static func plan(_ cards: [Card], planner: Planner, pool: WorkerPool) async -> [String: Result<CardPlan, CardFailure>] {
        let planned = await pool.map(cards) { planner.plan($0) }
        return Dictionary(zip(cards.map(\.id), planned.map { $0! }), uniquingKeysWith: { first, _ in first })
    }

    /// Stage 2: what the cache holds of every planned card, `width` cards at a time.
    static func lookUp(_ plans: [String: Result<CardPlan, CardFailure>], with lookUp: CacheLookUp,
                       width: Int) async -> [String: CardLookUp] {
        let planned = plans.values.compactMap { try? $0.get() }
        let found = await planned.concurrentMap(width: width) { await lookUp.lookUp($0) }
        return Dictionary(uniqueKeysWithValues: found.map { ($0.plan.card.id, $0) })
    }

    /// Stages 3 and 4: renders each card on the pool and stores it as soon as it is done, `jobs`
    /// cards at a time. A store that fails to write stops the build with that error; a card that
    /// fails is its own result.
    private func renderAndStore(_ cards: [CardLookUp], records: RecordCache, pool: WorkerPool,
                                cancellation: Cancellation,
                                events: @escaping @Sendable (BuildEvent) -> Void) async throws
        -> [String: Result<(CachedCard, StageReport, seconds: Double), CardFailure>] {
        guard !cards.isEmpty else { return [:] }
        // libvips starts (on this thread, before the workers use it) only when there is something to render.
        try Vips.start()
        Vips.setThreadsPerPipeline(Self.threadsPerPipeline(workers: min(request.jobs, cards.count)))
        let rendering = CardRendering(pool: pool, records: records, maxPixels: request.maxPixels)
        let storing = CardStoring(records: records)
        let stop = Cancellation(following: cancellation)
        let done = Counter()
        let results = await cards.concurrentMap(width: request.jobs) { card in
            let clock = ContinuousClock.now
            let outcome: Result<(CachedCard, StageReport), any Error>
            do {
                let rendered = try await rendering.render(card, cancellation: stop)
                outcome = .success((try await storing.store(rendered), rendered.stages))
            } catch {
                if error is FileSystemError { stop.cancel() }
                outcome = .failure(error)
            }
            let seconds = (ContinuousClock.now - clock).seconds
            if case .failure(is BuildCancelled) = outcome { return (card, outcome, seconds) }
            let result: BuildReport.CardResult = switch outcome {
            case .success(let (_, stages)):
                .init(id: card.plan.card.id, index: card.plan.card.index, status: .rendered, seconds: seconds, stages: stages)
            case .failure(let error):
                .failed(CardFailure(card: card.plan.card, error: error), seconds: seconds)
            }
            events(.finished(result, done: done.increment(), of: cards.count))
            return (card, outcome, seconds)
        }
        for case (_, .failure(let error as FileSystemError), _) in results { throw error }
        try cancellation.check()
        return Dictionary(uniqueKeysWithValues: results.map { card, outcome, seconds in
            (card.plan.card.id, outcome.map { ($0.0, $0.1, seconds) }.mapError { CardFailure(card: card.plan.card, error: $0) })
        })
    }

    /// The outcome of `card` from its stages' results.
    static func outcome(of card: Card, planned: Result<CardPlan, CardFailure>?, found: CardLookUp?,
                        rendered: Result<(CachedCard, StageReport, seconds: Double), CardFailure>?) -> CardOutcome {
        if case .failure(let failure)? = planned { return .failed(failure, seconds: 0) }
        if let cached = found?.cached { return .cached(cached) }
        switch rendered {
        case .success(let (card, stages, seconds))?: return .rendered(card, stages: stages, seconds: seconds)
        case .failure(let failure)?: return .failed(failure, seconds: 0)
        case nil: preconditionFailure("every planned card is looked up, and rendered if the cache lacks it")
        }
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
