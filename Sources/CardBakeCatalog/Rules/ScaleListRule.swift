/// What a list of scales may be, wherever it is written (a catalog's `scales` array, the command line's
/// `--scales`): at least one scale, each an integer from 1 to 4, none repeated, in any order.
package struct ScaleListRule {
    package static let range = 1...4

    /// The rule for a catalog's `scales`.
    package static let catalog = ScaleListRule(list: "array")
    /// The rule for `--scales`.
    package static let commandLine = ScaleListRule(list: "comma-separated list")

    /// What the list is where it is written, for messages.
    package let list: String

    /// The rule in words, for messages: `a non-empty array of different integers from 1 to 4`.
    package var allowed: String {
        "a non-empty \(list) of different integers from \(Self.range.lowerBound) to \(Self.range.upperBound)"
    }

    /// The scales of a list in ascending order, or nil after reporting every way the list breaks the rule.
    /// - Parameters:
    ///   - values: the list's values in order; nil for one its reader found unusable and reported. A
    ///     reader that checks ``range`` itself reports an out-of-range value in the same words as this rule.
    ///   - location: how messages name the value at an index, e.g. `style.scales[0]`.
    ///   - report: reports a message at the value at an index, or at the whole list for nil.
    package func scales(_ values: [Int?], location: (Int) -> String, report: (String, Int?) -> Void) -> [Int]? {
        guard !values.isEmpty else {
            report("the \(list) is empty; allowed: \(allowed).", nil)
            return nil
        }
        var firstIndexByScale: [Int: Int] = [:]
        var isValid = true
        for (index, value) in values.enumerated() {
            guard let scale = value else {
                isValid = false
                continue
            }
            if !Self.range.contains(scale) {
                report(MessageText.outOfRange(Double(scale), allowed: MessageText.integer(in: Self.range)), index)
                isValid = false
            } else if let first = firstIndexByScale[scale] {
                report("scale \(scale) is repeated (first at \(location(first))); allowed: \(allowed).", index)
                isValid = false
            } else {
                firstIndexByScale[scale] = index
            }
        }
        return isValid ? firstIndexByScale.keys.sorted() : nil
    }
}
