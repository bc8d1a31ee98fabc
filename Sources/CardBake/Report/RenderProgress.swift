import Synchronization

/// A build's progress events while cards render before the whole catalog is planned: a card that
/// finishes before planning ends is held back until `.planned` has gone out, so that a listener always
/// hears `.planned` first and every `.finished` with its number out of the cards to render.
final class RenderProgress: Sendable {
    private let events: @Sendable (BuildEvent) -> Void
    /// Locked while an event goes out, so that events leave in the order of their numbers.
    private let state = Mutex(State())

    private struct State {
        /// Known once planning has ended.
        var toRender: Int?
        var done = 0
        var held: [BuildReport.CardResult] = []
    }

    init(_ events: @escaping @Sendable (BuildEvent) -> Void) {
        self.events = events
    }

    /// Planning has ended: sends `.planned`, then the cards that finished meanwhile.
    func planned(total: Int, toRender: Int, failed: Int) {
        state.withLock { state in
            state.toRender = toRender
            events(.planned(total: total, toRender: toRender, failed: failed))
            for (offset, result) in state.held.enumerated() {
                events(.finished(result, done: offset + 1, of: toRender))
            }
            state.held = []
        }
    }

    /// A card to render has finished (rendered or failed).
    func finished(_ result: BuildReport.CardResult) {
        state.withLock { state in
            state.done += 1
            if let toRender = state.toRender {
                events(.finished(result, done: state.done, of: toRender))
            } else {
                state.held.append(result)
            }
        }
    }
}
