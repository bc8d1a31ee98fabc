/// What a card id may be: it names the card's output files, so it must be safe as a file name everywhere.
enum CardIDRule {
    static let maximumLength = 100

    /// The rule in words, for messages.
    static let allowed = "an id of 1 to \(maximumLength) characters, each a lowercase ASCII letter a-z, a digit 0-9, '.', '_' or '-', starting with a letter or digit"

    /// A message for the first way `id` breaks the rule, or nil if it follows it.
    static func problem(with id: String) -> String? {
        let scalars = id.unicodeScalars
        guard let first = scalars.first else {
            return "the id is empty; allowed: \(allowed)."
        }
        if scalars.count > maximumLength {
            return "the id is \(scalars.count) characters long; allowed: \(allowed)."
        }
        if !isLetterOrDigit(first) {
            return "the id \(MessageText.quoted(id)) starts with \(MessageText.describe(first)); allowed: \(allowed)."
        }
        if let bad = scalars.first(where: { !isLetterOrDigit($0) && !".-_".unicodeScalars.contains($0) }) {
            return "the id \(MessageText.quoted(id)) contains \(MessageText.describe(bad)); allowed: \(allowed)."
        }
        return nil
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
