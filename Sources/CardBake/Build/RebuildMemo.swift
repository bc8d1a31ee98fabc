import Synchronization

/// What one build works out per card that the next build in the same process (`cardbake watch`)
/// can take instead of working it out again, each value checked against the inputs it was made
/// from: an unchanged card's plan and its manifest entry's encoded forms. Holds the cards of the
/// last build only, so it does not grow as cards come and go.
public final class RebuildMemo: Sendable {
    let plans = CardMemo<CardPlan.Kept>()
    let spooledForms = CardMemo<SpooledForms.Kept>()

    public init() {}

    /// Starts a build: what the build before it kept becomes what this one looks in.
    func startBuild() {
        plans.startBuild()
        spooledForms.startBuild()
    }
}

/// Values kept by card id, from the last build and the one running.
final class CardMemo<Kept: Sendable>: Sendable {
    private struct State {
        var last: [String: Kept] = [:]
        var current: [String: Kept] = [:]
    }

    private let state = Mutex(State())

    /// What the build before kept becomes what is looked in, unless it kept nothing (it stopped on an error).
    func startBuild() {
        state.withLock { state in
            if !state.current.isEmpty { state.last = state.current }
            state.current = [:]
        }
    }

    /// The value kept for the card `id` by this build or the last when `matches` accepts it, else
    /// the one `make` makes, kept for the next build. `make` runs outside the lock; what it fails to
    /// make is not kept.
    func value<Failure: Error>(for id: String, if matches: (Kept) -> Bool,
                               else make: () throws(Failure) -> Kept) throws(Failure) -> Kept {
        let kept = state.withLock { state -> Kept? in
            guard let kept = state.current[id] ?? state.last[id], matches(kept) else { return nil }
            state.current[id] = kept
            return kept
        }
        if let kept { return kept }
        let made = try make()
        state.withLock { $0.current[id] = made }
        return made
    }
}
