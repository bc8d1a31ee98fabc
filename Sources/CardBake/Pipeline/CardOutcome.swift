import CardBakeCatalog

/// What became of one card in a build: the one per-card result the stages' results combine into.
enum CardOutcome: Sendable {
    /// Everything it needs was in the cache.
    case cached(CachedCard)
    /// The scales the cache lacked were rendered and stored.
    case rendered(CachedCard, stages: StageReport, seconds: Double)
    case failed(CardFailure, seconds: Double)

    /// The card as the cache holds it, unless it failed.
    var cachedCard: CachedCard? {
        switch self {
        case .cached(let card), .rendered(let card, _, _): card
        case .failed: nil
        }
    }

    /// The card's line in the report.
    func result(for card: Card) -> BuildReport.CardResult {
        switch self {
        case .cached:
            .cached(card)
        case let .rendered(_, stages, seconds):
            BuildReport.CardResult(id: card.id, index: card.index, status: .rendered, seconds: seconds, stages: stages)
        case let .failed(failure, seconds):
            .failed(failure, seconds: seconds)
        }
    }
}
