import Foundation
import Vips

/// Runs a build: plan every card from content digests, render what the cache lacks on a worker
/// pool, then bring the output folder and manifest up to date in one final step.
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

    /// Builds the catalog. Throws ``CatalogError`` when the catalog does not validate (nothing is
    /// rendered), ``BuildCancelled`` when cancelled, and an I/O error when the output cannot be written.
    public func run(cancellation: Cancellation = Cancellation(),
                    events: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws -> BuildReport {
        let start = ContinuousClock.now
        try Vips.start()
        let catalog = try request.loadCatalog()
        let workspace = try CacheWorkspace(request: request)
        defer { workspace.close() }
        let store = workspace.store
        let records = RecordCache(store: store)
        let writer = OutputWriter(directory: request.output, store: store, statCache: workspace.statCache)
        let planner = Planner(statCache: workspace.statCache, fonts: FontResolver(), records: records)

        var results: [BuildReport.CardResult?] = Array(repeating: nil, count: catalog.cards.count)
        var plans: [CardPlan?] = Array(repeating: nil, count: catalog.cards.count)
        var toRender: [Int] = []
        for (index, card) in catalog.cards.enumerated() {
            switch planner.plan(card) {
            case .success(var plan):
                dropUnservable(&plan, writer: writer, store: store)
                plans[index] = plan
                if plan.missingScales.isEmpty {
                    let stages = StageReport(background: .skipped, images: Dictionary(
                        uniqueKeysWithValues: card.style.scales.map { (Manifest.scaleName($0), .cached) }))
                    results[index] = .init(id: card.id, status: .cached, seconds: 0, stages: stages, reason: nil)
                } else {
                    toRender.append(index)
                }
            case .failure(let failure):
                results[index] = .init(id: card.id, status: .failed, seconds: 0, stages: nil, reason: failure.reason)
            }
        }
        events(.planned(total: catalog.cards.count, toRender: toRender.count))

        let baker = CardBaker(store: store, records: records, maxPixels: request.maxPixels)
        let done = Counter()
        let snapshot = plans
        let renderCount = toRender.count
        let baked = WorkerPool.map(toRender, workers: request.jobs, cancellation: cancellation) { index -> (BuildReport.CardResult, [Int: RenderedImageRecord]?) in
            let plan = snapshot[index]!
            let clock = ContinuousClock.now
            let outcome = Result { try baker.bake(plan, cancellation: cancellation) }
            let seconds = (ContinuousClock.now - clock).seconds
            let result: BuildReport.CardResult
            switch outcome {
            case .success(let outcome):
                result = .init(id: plan.card.id, status: .rendered, seconds: seconds, stages: outcome.stages, reason: nil)
            case .failure(let error):
                result = .init(id: plan.card.id, status: .failed, seconds: seconds, stages: nil, reason: "\(error)")
            }
            events(.finished(result, done: done.increment(), of: renderCount))
            return (result, try? outcome.get().images)
        }
        try cancellation.check()

        var images: [Int: [Int: RenderedImageRecord]] = [:]
        for (index, plan) in plans.enumerated() {
            if let plan, results[index] == nil || results[index]?.status == .cached {
                images[index] = plan.cached
            }
        }
        for (position, index) in toRender.enumerated() {
            guard let (result, records) = baked[position] else { continue }
            results[index] = result
            images[index] = records
        }

        var entries: [Manifest.Entry] = []
        for (index, plan) in plans.enumerated() {
            guard let plan, let cardImages = images[index] else { continue }
            do {
                entries.append(try writer.write(plan, images: cardImages))
            } catch {
                results[index]?.status = .failed
                results[index]?.reason = "\(error)"
            }
        }
        let manifest = Manifest(generator: Self.generator, cards: entries)
        let previous = Manifest.read(from: writer.manifestURL)
        try writer.writeManifest(manifest)
        let removed = writer.prune(previous: previous, current: manifest)
        workspace.saveStatCache()
        return BuildReport(cards: results.compactMap { $0 }, seconds: (ContinuousClock.now - start).seconds,
                           removed: removed)
    }

    /// Forgets cached scales whose bitmap would have to be copied out of the store but is no longer
    /// there intact, so they are rendered again instead of failing the card.
    private func dropUnservable(_ plan: inout CardPlan, writer: OutputWriter, store: any ArtifactStoring) {
        for (scale, record) in plan.cached {
            let file = request.output.appendingPathComponent(OutputWriter.file(for: plan.card, scale: scale))
            if (try? writer.statCache.digest(ofFileAt: file)) == record.blob { continue }
            if store.blob(record.blob) == nil {
                plan.cached[scale] = nil
            }
        }
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
