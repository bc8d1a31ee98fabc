import CardBakeFiles
import Foundation

/// Why a catalog could not be loaded. Its `description` is meant to be shown to the catalog's author as is.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read (missing, a directory, no permission, …).
    case unreadable(file: URL, reason: String)
    /// The file is not JSON. `line` and `column` are 1-based; columns count Unicode scalars.
    case invalidJSON(file: URL, line: Int, column: Int, reason: String)
    /// The file is JSON but breaks the catalog schema. Lists every problem, in document order.
    case invalid(file: URL, problems: [CatalogProblem])
    /// The catalog lacks translations and the build was asked to refuse that (`--strict`).
    case untranslated(file: URL, missing: [MissingTranslations])

    /// At most how many problems ``description`` lists before summarising the rest.
    public static let maximumListedProblems = 50

    /// One line per problem, each starting with the file path as it was given, e.g.
    /// `Input/catalog.json: style.blur.radius: 10000 is out of range; allowed: a number from 0 to 100.`
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "\(file.relativePath): cannot read the catalog: \(reason)."
        case .invalidJSON(let file, let line, let column, let reason):
            return "\(file.relativePath):\(line):\(column): invalid JSON: \(reason)."
        case .invalid(let file, let problems):
            var lines = problems.prefix(Self.maximumListedProblems).map { "\(file.relativePath): \($0)" }
            let unlisted = problems.count - Self.maximumListedProblems
            if unlisted > 0 {
                lines.append("… and \(unlisted) more \(unlisted.word("problem")).")
            }
            return lines.joined(separator: "\n")
        case .untranslated(let file, let missing):
            return missing.map { "\(file.relativePath): \($0) --strict refuses a missing translation." }
                .joined(separator: "\n")
        }
    }
}
