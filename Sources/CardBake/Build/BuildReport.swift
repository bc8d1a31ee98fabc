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
}

/// What happened to every card in a build, and the totals.
public struct BuildReport: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case rendered, cached, failed
    }

    public struct CardResult: Codable, Sendable, Equatable {
        public var id: String
        public var status: Status
        public var seconds: Double
        /// nil for a card that failed before its stages were known.
        public var stages: StageReport?
        public var reason: String?
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
