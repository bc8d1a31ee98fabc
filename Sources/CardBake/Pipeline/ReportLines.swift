import Synchronization

/// Each card's line of a build's report, in catalog order, filled in as the stages find it:
/// planning writes the lines of the cards cached or failed, the renderers those of the others as
/// each finishes. Made at the catalog's size, so that it does not grow while the workers paint.
final class ReportLines: Sendable {
    private let lines: Mutex<[BuildReport.CardResult?]>

    init(count: Int) {
        lines = Mutex(Array(repeating: nil, count: count))
    }

    /// Sets the line of the card at `position`.
    func set(_ line: BuildReport.CardResult, at position: Int) {
        lines.withLock { $0[position] = line }
    }

    /// How many lines so far say the card failed.
    var failures: Int {
        lines.withLock { lines in lines.count { $0?.status == .failed } }
    }

    /// Every line, once every card has one.
    var all: [BuildReport.CardResult] {
        lines.withLock { lines in lines.map { line in
            guard let line else { preconditionFailure("every card has a line once its stages ran") }
            return line
        } }
    }
}
