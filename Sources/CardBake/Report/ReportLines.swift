import CardBakeCatalog
import Synchronization

/// Each card's line of a build's report, in catalog order, filled in as the stages find it:
/// planning writes the lines of the cards cached or failed, the renderers those of the others as
/// each finishes. Made at the catalog's size, so that it does not grow while the workers paint.
///
/// A line is kept as its seconds and the index of its shape (status, stages, reason, field and
/// warnings) in a table of the distinct shapes: a build's cards have a handful, so a line costs
/// 16 bytes instead of a whole ``BuildReport/CardResult``. The card's ID and index come from `cards`.
final class ReportLines: Sendable {
    private let cards: [Card]
    private let state: Mutex<State>

    private struct Line {
        var seconds: Double
        /// Into ``State/shapes``; nil for a card without a line yet.
        var shape: Int32?
    }

    /// What a line says beside its card and seconds.
    private struct Shape: Hashable {
        let status: BuildReport.Status
        let stages: StageReport?
        let field: String?
        let reason: String?
        let warnings: [BuildReport.Warning]?

        init(_ line: BuildReport.CardResult) {
            (status, stages, field, reason, warnings) = (line.status, line.stages, line.field, line.reason, line.warnings)
        }
    }

    private struct State {
        var lines: [Line]
        var shapes: [Shape] = []
        var shapeIndex: [Shape: Int32] = [:]
    }

    /// Lines for `cards`, the build's cards in catalog order, none set yet.
    init(for cards: [Card]) {
        self.cards = cards
        state = Mutex(State(lines: Array(repeating: Line(seconds: 0, shape: nil), count: cards.count)))
    }

    /// Sets the line of the card at `position`, the line of `cards[position]`.
    func set(_ line: BuildReport.CardResult, at position: Int) {
        let shape = Shape(line)
        state.withLock { state in
            let index: Int32
            if let known = state.shapeIndex[shape] {
                index = known
            } else {
                index = Int32(state.shapes.count)
                state.shapes.append(shape)
                state.shapeIndex[shape] = index
            }
            state.lines[position] = Line(seconds: line.seconds, shape: index)
        }
    }

    /// Every line, once every card has one.
    var all: [BuildReport.CardResult] {
        state.withLock { state in
            zip(cards, state.lines).map { card, line in
                guard let index = line.shape else { preconditionFailure("every card has a line once its stages ran") }
                let shape = state.shapes[Int(index)]
                return BuildReport.CardResult(id: card.id, index: card.index, status: shape.status,
                                              seconds: line.seconds, stages: shape.stages, field: shape.field,
                                              reason: shape.reason, warnings: shape.warnings)
            }
        }
    }
}
