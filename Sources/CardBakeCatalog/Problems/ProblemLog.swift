/// Collects catalog problems as validation finds them, in whatever order it visits the document.
package final class ProblemLog {
    private var entries: [(position: JSONPosition, problem: CatalogProblem)] = []

    package var count: Int { entries.count }

    package func report(_ message: String, at path: JSONPath, position: JSONPosition, cardID: String?) {
        entries.append((position, CatalogProblem(path: path.description, cardID: cardID, message: message)))
    }

    /// Adds `other`'s problems after these, in its order.
    package func append(contentsOf other: ProblemLog) {
        entries.append(contentsOf: other.entries)
    }

    /// The problems ordered by where they are in the document; problems at the same place keep report order.
    package var problemsInDocumentOrder: [CatalogProblem] {
        entries.enumerated()
            .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
            .map(\.element.problem)
    }
}
