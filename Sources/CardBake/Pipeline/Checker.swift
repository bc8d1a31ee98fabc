import CardBakeCache
import CardBakeCatalog
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
    /// that does not validate, ``LockTimeout`` when a build holds the output or cache folder for
    /// longer than the request waits (`waiting` is called once per folder a build holds).
    public func run(waiting: (URL, LockHolder) -> Void = { _, _ in }) throws -> [Finding] {
        try Vips.start()
        let catalog = try request.loadCatalog()
        let lock = try WorkspaceLock(checking: request, waiting: waiting)
        defer { lock.release() }
        let statCache = StatCache(loadingFrom: request.cache?.appendingPathComponent(CacheWorkspace.statCacheFile))
        let planner = Planner(statCache: statCache, fonts: FontResolver())
        let output = OutputFolder(directory: request.output, statCache: statCache)
        let manifestURL = output.manifestURL
        let inPlace = CardManifest.read(from: manifestURL)
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
            if let change = CardChange.between(entry, and: plan, filesIn: output) {
                findings.append(Finding(cardID: card.id, kind: .stale, reason: change.description))
            }
        }
        let ids = Set(catalog.cards.map(\.id))
        for entry in entries where !ids.contains(entry.id) {
            findings.append(Finding(cardID: entry.id, kind: .extra, reason: "no longer in the catalog"))
        }
        if request.gallery, let inPlace {
            findings += Gallery(of: inPlace).differences(in: request.output)
        }
        return findings
    }
}
