import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation
import Vips

/// Compares the output folder with what a build would produce, without writing anything.
public struct Checker: Sendable {
    public let request: BuildRequest

    public init(request: BuildRequest) {
        self.request = request
    }

    /// A card whose output is not what a build would write.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// In the catalog, not in the manifest.
            case missing
            /// In both, but an input changed or a file differs.
            case stale
            /// In the manifest, no longer in the catalog.
            case extra
            /// Cannot be built at all (missing image, unknown font, …).
            case failing
        }

        /// The card's id; for a file made from the manifest (the gallery), that file's name.
        public var cardID: String
        public var kind: Kind
        public var reason: String

        public var description: String { "\(kind.rawValue): \(cardID): \(reason)" }
    }

    /// Every difference, in catalog order, then the extra cards. Throws ``CatalogError`` for a catalog
    /// that does not validate, ``CacheError`` for a cache folder of another version, ``LockTimeout``
    /// when a build holds the output or cache folder for longer than the request waits (`waiting` is
    /// called once per folder a build holds).
    ///
    /// When the output folder is as the last build of the same inputs left it (``WholeBuild``, as a
    /// build decides it), there is no difference and no card is planned; otherwise every card is
    /// compared with its manifest entry.
    ///
    /// Photos given as URLs are never downloaded: they are taken from the cache's records, `note`
    /// hears of each one older than its catalog's `maxAge` (a build would revalidate it), and a card
    /// whose photo was never fetched is failing.
    public func run(waiting: (URL, LockHolder) -> Void = { _, _ in }, note: (String) -> Void = { _ in }) async throws -> [Finding] {
        async let readAhead = ReadAhead(for: request)
        var reading = try CatalogReading(request: request, parse: loadCatalog) { CatalogOutline.Source($0, digest: $0.digest) }
        let lock = try WorkspaceLock(checking: request, waiting: waiting)
        defer { lock.release() }
        let read = await readAhead
        let statCache = StatCache(loading: read.savedStatCache)
        let fonts = FontResolver()
        let output = OutputFolder(directory: request.output, statCache: statCache)
        try reading.parseUnlessKept(statCache: statCache)
        var photoFailures = try await photosFromCache(&reading, note: note)
        let source = try reading.source(statCache: statCache)
        if try await isBuiltAsAWhole(source, in: output, fonts: fonts, installedFonts: read.installedFonts) {
            // The whole-build record does not cover the asset catalog, which lives elsewhere.
            return assetCatalogFindings(for: output.readManifest()?.cards ?? [], statCache: statCache)
        }
        if reading.parsed == nil {
            // A kept outline stood for the catalog, whose photos given as URLs are resolved now it is parsed.
            _ = try reading.catalog()
            photoFailures = try await photosFromCache(&reading, note: note)
        }
        let catalog = try reading.catalog()
        try Vips.start()
        let planner = Planner(statCache: statCache, fonts: fonts, strict: request.strict, photoFailures: photoFailures)
        let manifestURL = output.manifestURL
        let inPlace = output.readManifest()
        let entries = inPlace?.cards ?? []
        let built = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Finding] = []
        for card in catalog.cards {
            let plan: CardPlan
            switch planner.plan(card) {
            case .success(let success): plan = success
            case .failure(let failure):
                findings.append(Finding(cardID: card.id, kind: .failing, reason: failure.reason))
                continue
            }
            guard let entry = built[card.id] else {
                findings.append(Finding(cardID: card.id, kind: .missing, reason: "not in \(manifestURL.path)"))
                continue
            }
            if let change = CardChange.between(entry.outline, and: plan, filesIn: output) {
                findings.append(Finding(cardID: card.id, kind: .stale, reason: change.description))
            }
        }
        let ids = Set(catalog.cards.map(\.id))
        for entry in entries where !ids.contains(entry.id) {
            findings.append(Finding(cardID: entry.id, kind: .extra, reason: "no longer in the catalog"))
        }
        findings += assetCatalogFindings(for: entries, statCache: statCache)
        if request.writesGallery, let inPlace, let digest = try? statCache.digest(ofFileAt: manifestURL) {
            findings += try Gallery(of: inPlace, digest: digest).differences(in: output)
        }
        return findings
    }

    /// The photos the parsed catalog gives as URLs, resolved from the cache's records into it
    /// (``CardPhotos/resolveFromCache(_:store:request:stale:)``); why each URL's cannot be had. None when the catalog is not parsed or gives no URL.
    private func photosFromCache(_ reading: inout CatalogReading<Catalog>,
                                 note: (String) -> Void) async throws -> [String: PhotoFetchFailure] {
        guard var parsed = reading.parsed, parsed.cards.contains(where: { $0.imageURL != nil }) else { return [:] }
        let store: any ArtifactStoring = try request.cache.flatMap { cache in
            FileManager.default.fileExists(atPath: cache.path) ? try DiskArtifactStore(readingFrom: cache) : nil
        } ?? InMemoryArtifactStore()
        let failures = await CardPhotos.resolveFromCache(&parsed, store: store, request: request) { card in
            note("the photo of \(card.id) was fetched longer than remoteImages.maxAge ago; a build revalidates it")
        }
        reading.replaceParsed(with: parsed)
        return failures
    }

    /// The `--xcassets` catalog's files that differ from those `entries` imply; `entries` is read
    /// only when there is an asset catalog (it may decode the whole manifest).
    private func assetCatalogFindings(for entries: @autoclosure () -> [CardManifest.Entry],
                                      statCache: StatCache) -> [Finding] {
        guard let xcassets = request.xcassets else { return [] }
        return AssetCatalogWriter.differences(in: xcassets, for: entries(), statCache: statCache).map { card, problem in
            Finding(cardID: card ?? xcassets.lastPathComponent, kind: .stale, reason: problem)
        }
    }

    /// The catalog, refused before the cache is held if it does not validate or the asset catalog is misplaced.
    private func loadCatalog() throws -> Catalog {
        let catalog = try request.loadCatalog()
        if let xcassets = request.xcassets {
            try AssetCatalog.checkDestination(xcassets, output: request.output, catalog: catalog)
        }
        return catalog
    }

    /// Whether the cache records a build of these inputs that left the output folder as it is.
    /// Throws ``CacheError`` when the cache folder is of another version; a missing one records nothing.
    private func isBuiltAsAWhole(_ source: CatalogOutline.Source, in output: OutputFolder, fonts: FontResolver,
                                 installedFonts: ContentDigest) async throws -> Bool {
        guard let cache = request.cache, FileManager.default.fileExists(atPath: cache.path) else { return false }
        let records = RecordCache(store: try DiskArtifactStore(readingFrom: cache))
        guard let build = WholeBuild(source.outline, catalogDigest: source.digest, request: request,
                                     statCache: output.statCache, fonts: fonts, installedFonts: installedFonts),
              let recorded = await records.record(ContentDigest.self, for: build.key) else {
            return false
        }
        let pool = WorkerPool(threads: request.jobs)
        defer { pool.shutDown() }
        return await build.isUpToDate(source.outline, in: output, recorded: recorded, pool: pool)
    }
}
