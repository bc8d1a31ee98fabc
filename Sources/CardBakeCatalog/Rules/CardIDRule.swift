/// What a card id may be: it names the card's output files, so it must be safe as a file name everywhere.
package enum CardIDRule {
    package static let maximumLength = 100

    /// The rule in words, for messages.
    package static let allowed = "an id of 1 to \(maximumLength) characters, each a lowercase ASCII letter a-z, a digit 0-9, '.', '_' or '-', starting with a letter or digit"

    /// A message for the first way `id` breaks the rule, or nil if it follows it.
    package static func problem(with id: String) -> String? {
        guard let first = id.unicodeScalars.first else {
            return "the id is empty; allowed: \(allowed)."
        }
        guard isLetterOrDigit(first) else {
            return "the id \(MessageText.quoted(id)) starts with \(MessageText.describe(first)); allowed: \(allowed)."
        }
        if let bad = id.unicodeScalars.first(where: { !isLetterOrDigit($0) && $0 != "." && $0 != "_" && $0 != "-" }) {
            return "the id \(MessageText.quoted(id)) contains \(MessageText.describe(bad)); allowed: \(allowed)."
        }
        // Only ASCII is left, so bytes are characters.
        if id.utf8.count > maximumLength {
            return "the id is \(id.utf8.count) characters long; allowed: \(allowed)."
        }
        return nil
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
