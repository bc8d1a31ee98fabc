import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// Which stages of a card came from the cache; written per card by `--report`.
public struct StageReport: Codable, Sendable, Hashable {
    public enum Stage: String, Codable, Sendable {
        /// Taken from the cache.
        case cached
        /// Computed in this build.
        case rendered
        /// Not needed: every bitmap was cached.
        case skipped
    }

    public var background: Stage
    /// By scale name (`1x`, `2x`, …).
    public var images: [String: Stage]
    /// The images of the card in each translated locale, by locale tag, then scale name; nil for a
    /// catalog without `locales`, or a card the cache held whole.
    public var translations: [String: [String: Stage]]?

    /// Every bitmap of `scales` from the cache; the background not needed.
    static func allCached(_ scales: some Sequence<Int>) -> StageReport {
        StageReport(background: .skipped,
                    images: Dictionary(uniqueKeysWithValues: scales.map { (CardManifest.scaleName($0), .cached) }))
    }

    /// This report, holding the same table as an equal one made before it in this process: a build's
    /// cards have a handful of distinct reports, so its report costs no table per card.
    func shared() -> StageReport {
        Self.distinct.withLock { $0.insert(self).memberAfterInsert }
    }

    private static let distinct = Mutex(Set<StageReport>())
}

/// What happened to every card in a build, and the totals.
public struct BuildReport: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case rendered, cached, failed
    }

    public struct CardResult: Codable, Sendable, Equatable {
        public var id: String
        /// Position in the catalog's `cards`.
        public var index: Int
        public var status: Status
        public var seconds: Double
        /// nil for a card that failed before its stages were known.
        public var stages: StageReport?
        /// For a failed card: the field at fault (`image`, `style.title`), if any, and why.
        public var field: String?
        public var reason: String?
        /// What the build says about a card it built: characters no installed font draws; nil when nothing.
        public var warnings: [Warning]?

        static func cached(_ card: Card, warnings: [Warning] = []) -> CardResult {
            cached(id: card.id, index: card.index, scales: card.style.scales, warnings: warnings)
        }

        static func cached(id: String, index: Int, scales: [Int], warnings: [Warning] = []) -> CardResult {
            CardResult(id: id, index: index, status: .cached, seconds: 0,
                       stages: StageReport.allCached(scales).shared(), warnings: warnings.isEmpty ? nil : warnings)
        }

        static func rendered(_ card: Card, seconds: Double, stages: StageReport, reason: String,
                             warnings: [Warning]) -> CardResult {
            CardResult(id: card.id, index: card.index, status: .rendered, seconds: seconds, stages: stages.shared(),
                       reason: reason, warnings: warnings.isEmpty ? nil : warnings)
        }

        static func failed(_ failure: CardFailure, seconds: Double = 0) -> CardResult {
            CardResult(id: failure.cardID, index: failure.index, status: .failed, seconds: seconds,
                       field: failure.field, reason: failure.reason)
        }

        /// `cards[3] ("toucan").image`: where in the catalog a failure is.
        public var location: String { location(of: field) }

        /// `cards[3] ("toucan").description`: where in the catalog the card's `field` is.
        public func location(of field: String?) -> String {
            "cards[\(index)] (\"\(id)\")" + (field.map { ".\($0)" } ?? "")
        }
    }

    /// The CPUs a build found it may use, and the cards it rendered at once.
    public struct Parallelism: Codable, Sendable, Equatable {
        /// CPUs this process may keep busy (``UsableCPUs``).
        public var cpus: Int
        /// How they were found: `affinity 2 of 64, cgroup cpu.max 200000/100000`.
        public var detected: String
        /// Cards rendered at once (`--jobs`).
        public var jobs: Int
    }

    /// Something a card's build noticed without failing it.
    public struct Warning: Codable, Sendable, Hashable {
        /// The card's field it is about: `title` or `description`.
        public var field: String
        public var message: String
    }

    public var cards: [CardResult]
    public var seconds: Double
    /// Output files removed because their cards left the catalog.
    public var removed: [String]
    /// nil only in a report made in code.
    public var parallelism: Parallelism?
    /// What the cache's size limit (`BuildRequest.cacheMaxBytes`) made the build remove from the
    /// cache; nil when no collection ran.
    public var collected: CacheCollection?
    /// What the build exchanged with the remote cache; nil without one.
    public var remoteCache: RemoteCacheTraffic?
    /// What the build fetched of the photos its catalog gives as URLs; nil when it gives none.
    public var photos: PhotoTraffic?
    /// The files the build read: the catalog, every card's image and font files. Not in `--report`.
    public var inputs: Set<URL> = []

    private enum CodingKeys: String, CodingKey {
        case cards, seconds, removed, parallelism, collected, remoteCache, photos
    }

    public init(cards: [CardResult], seconds: Double, removed: [String], parallelism: Parallelism? = nil,
                collected: CacheCollection? = nil, remoteCache: RemoteCacheTraffic? = nil, photos: PhotoTraffic? = nil,
                inputs: Set<URL> = []) {
        self.photos = photos
        self.cards = cards
        self.seconds = seconds
        self.removed = removed
        self.parallelism = parallelism
        self.collected = collected
        self.remoteCache = remoteCache
        self.inputs = inputs
    }

    public func count(_ status: Status) -> Int { cards.filter { $0.status == status }.count }
    public var failures: [CardResult] { cards.filter { $0.status == .failed } }

    /// `12 cards: 1 rendered, 11 cached, 0 failed in 0.84 s (14.3 cards/s)`; `1 card: …` for one.
    public var summary: String {
        let rate = seconds > 0 ? Double(cards.count) / seconds : 0
        return "\(cards.count.counting("card")): \(count(.rendered)) rendered, \(count(.cached)) cached, \(count(.failed)) failed"
            + " in \(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", rate)) cards/s)"
            + (remoteCache.map { "; \($0.summary)" } ?? "")
            + (photos.map { "; \($0.summary)" } ?? "")
    }

    /// JSON for `--report`, as `JSONEncoder` would write it pretty-printed with sorted keys (and
    /// decodable as this type), but written directly, which is many times faster for a large catalog.
    public func encoded() -> Data {
        var json = JSONWriter()
        json.object { report in
            report.member("cards") { $0.array(cards) { $0.write($1) } }
            report.member("parallelism", ifPresent: parallelism) { json, parallelism in
                json.object { json in
                    json.member("cpus") { $0.number(parallelism.cpus) }
                    json.member("detected") { $0.string(parallelism.detected) }
                    json.member("jobs") { $0.number(parallelism.jobs) }
                }
            }
            report.member("photos", ifPresent: photos) { $0.write($1) }
            report.member("remoteCache", ifPresent: remoteCache) { $0.write($1) }
            report.member("removed") { $0.array(removed) { $0.string($1) } }
            report.member("seconds") { $0.number(seconds) }
        }
        return Data(json.bytes + [UInt8(ascii: "\n")])
    }
}

private extension JSONWriter {
    mutating func write(_ traffic: RemoteCacheTraffic) {
        object { json in
            json.member("abandonedUploads") { $0.number(traffic.abandonedUploads) }
            json.member("disabled") { $0.bool(traffic.disabled) }
            json.member("downloadedBytes") { $0.number(traffic.downloadedBytes) }
            json.member("failures") { $0.number(traffic.failures) }
            json.member("hits") { $0.number(traffic.hits) }
            json.member("misses") { $0.number(traffic.misses) }
            json.member("mode") { $0.string(traffic.mode) }
            json.member("refused") { $0.number(traffic.refused) }
            json.member("server") { $0.string(traffic.server) }
            json.member("uploadedBytes") { $0.number(traffic.uploadedBytes) }
            json.member("uploads") { $0.number(traffic.uploads) }
        }
    }

    mutating func write(_ photos: PhotoTraffic) {
        object { json in
            json.member("cards") { json in
                json.array(photos.cards) { json, use in
                    json.object { json in
                        json.member("id") { $0.string(use.id) }
                        json.member("index") { $0.number(use.index) }
                        json.member("source") { $0.string(use.source.rawValue) }
                    }
                }
            }
            json.member("downloadedBytes") { $0.number(photos.downloadedBytes) }
            json.member("requests") { $0.number(photos.requests) }
        }
    }

    /// Images' stages by scale name, as an object in the names' order.
    private mutating func stages(_ images: [String: StageReport.Stage]) {
        object { json in
            for (scale, stage) in images.sorted(by: { $0.key < $1.key }) {
                json.member(scale) { $0.string(stage.rawValue) }
            }
        }
    }

    mutating func write(_ card: BuildReport.CardResult) {
        object { json in
            json.member("field", ifPresent: card.field) { $0.string($1) }
            json.member("id") { $0.string(card.id) }
            json.member("index") { $0.number(card.index) }
            json.member("reason", ifPresent: card.reason) { $0.string($1) }
            json.member("seconds") { $0.number(card.seconds) }
            json.member("stages", ifPresent: card.stages) { json, stages in
                json.object { json in
                    json.member("background") { $0.string(stages.background.rawValue) }
                    json.member("images") { $0.stages(stages.images) }
                    json.member("translations", ifPresent: stages.translations) { json, translations in
                        json.object { json in
                            for (locale, images) in translations.sorted(by: { $0.key < $1.key }) {
                                json.member(locale) { $0.stages(images) }
                            }
                        }
                    }
                }
            }
            json.member("status") { $0.string(card.status.rawValue) }
            json.member("warnings", ifPresent: card.warnings) { json, warnings in
                json.array(warnings) { json, warning in
                    json.object { json in
                        json.member("field") { $0.string(warning.field) }
                        json.member("message") { $0.string(warning.message) }
                    }
                }
            }
        }
    }
}
