import CardBakeCatalog

/// What became of one card in a build: the one per-card result the stages' results combine into.
enum CardOutcome: Sendable {
    /// Everything it needs was in the cache.
    case cached(CachedCard)
    /// The scales the cache lacked were rendered and stored.
    case rendered(RenderedOutcome)
    case failed(CardFailure, seconds: Double)

    /// A card that went through rendering: rendered, or failed after `seconds` of trying.
    init(_ rendering: Result<RenderedOutcome, CardFailure>, seconds: Double) {
        switch rendering {
        case .success(let rendered): self = .rendered(rendered)
        case .failure(let failure): self = .failed(failure, seconds: seconds)
        }
    }

    /// The card as the cache holds it, unless it failed.
    var cachedCard: CachedCard? {
        switch self {
        case .cached(let card): card
        case .rendered(let rendered): rendered.card
        case .failed: nil
        }
    }

    /// The card's line in the report.
    func result(for card: Card) -> BuildReport.CardResult {
        var result: BuildReport.CardResult = switch self {
        case .cached:
            .cached(card)
        case let .rendered(rendered):
            BuildReport.CardResult(id: card.id, index: card.index, status: .rendered, seconds: rendered.seconds,
                                   stages: rendered.stages, reason: rendered.change.description)
        case let .failed(failure, seconds):
            .failed(failure, seconds: seconds)
        }
        if let warnings = cachedCard?.plan.warnings, !warnings.isEmpty {
            result.warnings = warnings
        }
        return result
    }
}

/// A card rendered and stored in this build, and why it was.
struct RenderedOutcome: Sendable {
    let card: CachedCard
    let stages: StageReport
    let seconds: Double
    let change: CardChange
}
