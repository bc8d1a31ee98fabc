import Foundation

/// Which stages of a card came from the cache; written per card by `--report`.
public struct StageReport: Codable, Sendable, Equatable {
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

    /// Every bitmap of `scales` from the cache; the background not needed.
    static func allCached(_ scales: some Sequence<Int>) -> StageReport {
        StageReport(background: .skipped,
                    images: Dictionary(uniqueKeysWithValues: scales.map { (Manifest.scaleName($0), .cached) }))
    }
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

        static func cached(_ card: Card) -> CardResult {
            CardResult(id: card.id, index: card.index, status: .cached, seconds: 0,
                       stages: .allCached(card.style.scales))
        }

        static func failed(_ failure: CardFailure, seconds: Double = 0) -> CardResult {
            CardResult(id: failure.cardID, index: failure.index, status: .failed, seconds: seconds,
                       field: failure.field, reason: failure.reason)
        }

        /// `cards[3] ("toucan").image`: where in the catalog a failure is.
        public var location: String {
            "cards[\(index)] (\"\(id)\")" + (field.map { ".\($0)" } ?? "")
        }
    }

    public var cards: [CardResult]
    public var seconds: Double
    /// Output files removed because their cards left the catalog.
    public var removed: [String]

    public func count(_ status: Status) -> Int { cards.filter { $0.status == status }.count }
    public var failures: [CardResult] { cards.filter { $0.status == .failed } }

    /// `12 cards: 1 rendered, 11 cached, 0 failed in 0.84 s (14.3 cards/s)`.
    public var summary: String {
        let rate = seconds > 0 ? Double(cards.count) / seconds : 0
        return "\(cards.count) cards: \(count(.rendered)) rendered, \(count(.cached)) cached, \(count(.failed)) failed"
            + " in \(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", rate)) cards/s)"
    }

    /// JSON for `--report`: pretty-printed with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
