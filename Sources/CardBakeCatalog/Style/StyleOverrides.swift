import Foundation

/// Values given on the command line (`--scales`, `--format`) that replace the catalog's in every card's style.
///
/// They are the last style layer: ``CatalogLoader`` applies them over the catalog's style and over each
/// card's own `style` block before it checks the rules a whole style must follow, such as the encoder's
/// size limit, so those rules judge the values the cards are built with, and their messages say which
/// values came from which flag. Each value is checked when the overrides are made, by the rule of the
/// catalog key it replaces.
public struct StyleOverrides: Sendable, Hashable {
    /// Replaces `scales` (`--scales`), ascending as the catalog's are.
    public private(set) var scales: [Int]?
    /// Replaces `format` (`--format`).
    public private(set) var format: OutputFormat.Kind?

    /// No overrides: the catalog's own values.
    public init() {}

    /// - Parameter scales: checked as a catalog's `scales` are: at least one, each from 1 to 4, none
    ///   repeated, in any order.
    /// - Throws: ``OverrideError`` naming each value of `--scales` that breaks the rule.
    public init(scales: [Int]? = nil, format: OutputFormat.Kind? = nil) throws(OverrideError) {
        if let scales {
            var problems: [CatalogProblem] = []
            self.scales = ScaleListRule.commandLine.scales(scales, location: Self.scalesLocation) { message, index in
                problems.append(CatalogProblem(path: index.map(Self.scalesLocation) ?? "--scales", message: message))
            }
            guard problems.isEmpty else { throw OverrideError(problems: problems) }
        }
        self.format = format
    }

    /// The integers of a `--scales` argument such as `1,2,3` (spaces around each allowed), in order, for
    /// ``init(scales:format:)`` to check.
    /// - Throws: ``OverrideError`` naming each part that is not an integer.
    public static func scales(parsing argument: String) throws(OverrideError) -> [Int] {
        let parts = argument.allSatisfy(\.isWhitespace) ? [] : argument.split(separator: ",", omittingEmptySubsequences: false)
        var problems: [CatalogProblem] = []
        let scales = parts.enumerated().compactMap { index, part -> Int? in
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let scale = Int(text) else {
                let expected = MessageText.integer(in: ScaleListRule.range)
                problems.append(CatalogProblem(path: scalesLocation(index),
                                               message: "expected \(expected), found \(MessageText.quoted(text))."))
                return nil
            }
            return scale
        }
        guard problems.isEmpty else { throw OverrideError(problems: problems) }
        return scales
    }

    /// `style` with the values these overrides set in place of its own.
    package func applied(to style: CardStyle) -> CardStyle {
        var style = style
        if let scales { style.scales = scales }
        if let format { style.output.kind = format }
        return style
    }

    /// Marks, in a message, scales that came from `--scales`; empty when they came from the catalog.
    package var scalesSource: String { scales == nil ? "" : " (from --scales)" }
    /// Marks, in a message, a format that came from `--format`; empty when it came from the catalog.
    package var formatSource: String { format == nil ? "" : " (from --format)" }

    /// How messages name the value of `--scales` at an index: `--scales[0]`.
    private static func scalesLocation(_ index: Int) -> String { "--scales[\(index)]" }
}
