/// Why values given on the command line cannot override the catalog's (see ``StyleOverrides``).
/// Its `description` is meant to be shown as is.
public struct OverrideError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem found, each at a path that names its flag, e.g. `--scales[1]`.
    public var problems: [CatalogProblem]

    /// One line per problem, e.g. `--scales[1]: 9 is out of range; allowed: an integer from 1 to 4.`
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
