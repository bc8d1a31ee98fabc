import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation
import Vips

/// Runs a build: plan every card from content digests, render what the cache lacks on a worker
/// pool, then bring the output folder and manifest up to date in one final step.
///
/// A catalog built before with the same inputs, into an output folder still as that build left it,
/// is recognised as a whole (``WholeBuild``): nothing is planned or written.
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
                    events: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws -> BuildReport {
        let start = ContinuousClock.now
        let catalog = try request.loadCatalog()
        let lock = try WorkspaceLock(building: request, cancellation: cancellation, events: events)
        defer { lock.release() }
        let workspace = try CacheWorkspace(request: request)
        defer { workspace.close() }
        let records = RecordCache(store: workspace.store)
        let writer = OutputWriter(directory: request.output, store: workspace.store, statCache: workspace.statCache,
                                  journal: .output(request.output, cards: catalog.cards))
        let fonts = FontResolver()

        // A catalog built before, with the same images and fonts, into an output folder as that
        // build left it: nothing to plan or write.
        let wholeBuild = WholeBuild(catalog: catalog, request: request, statCache: workspace.statCache, fonts: fonts)
        if let wholeBuild, wholeBuild.isUpToDate(catalog, in: request.output, manifest: writer.manifestURL,
                                                 records: records, statCache: workspace.statCache,
                                                 workers: request.jobs) {
            events(.planned(total: catalog.cards.count, toRender: 0))
            workspace.saveStatCache()
            return BuildReport(cards: catalog.cards.map(BuildReport.CardResult.cached),
                               seconds: (ContinuousClock.now - start).seconds, removed: [])
        }
        let planner = Planner(statCache: workspace.statCache, fonts: fonts)

        // Plan: digests and cache lookups only, on the worker pool (after an edit to a large
        // catalog, most of the rebuild is this and the output check below).
        let planned = WorkerPool.map(catalog.cards, workers: request.jobs) { card in
            planner.plan(card).map { plan in
                var plan = plan
                plan.cached = records.cachedImages(of: plan)
                return plan
            }
        }
        var results: [BuildReport.CardResult] = []
        var plans: [CardPlan?] = []
        for case let outcome? in planned {
            switch outcome {
            case .success(let plan):
                plans.append(plan)
                results.append(.cached(plan.card))
            case .failure(let failure):
                plans.append(nil)
                results.append(.failed(failure))
            }
        }
        let toRender = plans.compactMap { $0 }.filter { !$0.missingScales.isEmpty }
        events(.planned(total: catalog.cards.count, toRender: toRender.count))

        // Render what the cache lacks, on the worker pool; a cache write that fails stops it. libvips
        // starts (on this thread, before the workers) only when there is something to render.
        if !toRender.isEmpty {
            try Vips.start()
            Vips.setThreadsPerPipeline(Self.threadsPerPipeline(workers: min(request.jobs, toRender.count)))
        }
        let baker = CardBaker(store: workspace.store, records: records, maxPixels: request.maxPixels)
        let stop = Cancellation(following: cancellation)
        let done = Counter()
        let baked = WorkerPool.map(toRender, workers: request.jobs, cancellation: stop) { plan in
            let clock = ContinuousClock.now
            let outcome = Result { try baker.bake(plan, cancellation: stop) }
            if case .failure(is FileSystemError) = outcome { stop.cancel() }
            let seconds = (ContinuousClock.now - clock).seconds
            let result: BuildReport.CardResult = switch outcome {
            case .success(let baked):
                .init(id: plan.card.id, index: plan.card.index, status: .rendered, seconds: seconds, stages: baked.stages)
            case .failure(let failure as CardFailure):
                .failed(failure, seconds: seconds)
            case .failure(let error):
                .failed(CardFailure(card: plan.card, field: nil, error: error), seconds: seconds)
            }
            events(.finished(result, done: done.increment(), of: toRender.count))
            return (result, outcome)
        }
        for case (_, .failure(let error as FileSystemError))? in baked { throw error }
        try cancellation.check()
        for (plan, outcome) in zip(toRender, baked) {
            guard let (result, rendering) = outcome else { continue }
            results[plan.card.index] = result
            plans[plan.card.index]?.cached = (try? rendering.get().images) ?? [:]
        }

        // Bring the output folder up to date in one step, the cards' files on the worker pool.
        let toWrite = plans.compactMap { $0 }.filter { results[$0.card.index].status != .failed }
        let written = WorkerPool.map(toWrite, workers: request.jobs) { plan in
            Result { try write(plan, with: writer, repairingWith: baker, cancellation: cancellation) }
        }
        var entries: [CardManifest.Entry] = []
        for case let (plan, outcome?) in zip(toWrite, written) {
            do {
                let (entry, repair) = try outcome.get()
                entries.append(entry)
                if let repair {
                    results[plan.card.index].status = .rendered
                    results[plan.card.index].stages = repair
                }
            } catch let error as FileSystemError where error.isWriteFailure {
                throw error
            } catch {
                results[plan.card.index] = .failed(CardFailure(card: plan.card, field: nil, error: error))
            }
        }
        let manifest = CardManifest(generator: Self.generator, cards: entries)
        let (removed, manifestDigest) = try writer.replaceManifest(with: manifest)
        writer.journal.finish()
        if let wholeBuild, !results.contains(where: { $0.status == .failed }) {
            // Only the next build's shortcut depends on it: a record that cannot be stored is not an error.
            try? records.save(WholeBuild.outputDigest(manifest: manifestDigest, entries: entries, of: catalog.cards),
                              for: wholeBuild.key)
        }
        workspace.saveIndexes()
        return BuildReport(cards: results, seconds: (ContinuousClock.now - start).seconds, removed: removed)
    }

    /// Threads for each libvips pipeline when `workers` cards render at once: the cores shared
    /// among the workers, at least one. A full build (more workers than cores) gets one thread per
    /// pipeline and its parallelism from the cards; a rebuild of one card gets every core.
    static func threadsPerPipeline(workers: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        max(1, cores / max(1, workers))
    }

    /// Writes a card's files. A cached bitmap found missing or damaged in the store (it is checked
    /// as it is copied out) is rendered again, once per scale, rather than failing the card; the
    /// stages of that repair are returned.
    private func write(_ plan: CardPlan, with writer: OutputWriter, repairingWith baker: CardBaker,
                       cancellation: Cancellation) throws -> (CardManifest.Entry, repair: StageReport?) {
        var plan = plan
        var repair: StageReport?
        var repaired: Set<Int> = []
        while true {
            do {
                return (try writer.write(plan, images: plan.cached), repair)
            } catch OutputError.missingBlob(let scale) where !repaired.contains(scale) {
                repaired.insert(scale)
                plan.cached[scale] = nil
                try Vips.start()
                let baked = try baker.bake(plan, cancellation: cancellation)
                plan.cached = baked.images
                repair = baked.stages
            }
        }
    }
}
