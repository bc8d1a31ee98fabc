/// What a catalog text (a title, a description, a font name) may contain.
///
/// Lengths and positions count Unicode scalars: a limit on grapheme clusters would let a single
/// "character" carry any number of combining marks.
package struct TextRule: Sendable {
    package var maximumLength: Int
    package var allowsEmpty: Bool
    /// Whether line feed and tab are allowed; every other control character (U+0000–U+001F, U+007F) never is.
    /// NUL in particular is refused here, with the text's path, because the renderer hands text and font
    /// names to Pango and fontconfig as C strings, where a NUL would silently cut them short.
    package var allowsLineFeedAndTab: Bool

    package static let title = TextRule(maximumLength: 1_000, allowsEmpty: true, allowsLineFeedAndTab: false)
    package static let description = TextRule(maximumLength: 1_000_000, allowsEmpty: true, allowsLineFeedAndTab: true)
    package static let fontName = TextRule(maximumLength: 200, allowsEmpty: false, allowsLineFeedAndTab: false)

    /// What the rule allows, for messages: `a string of at most 1000 characters without control characters`.
    package var allowed: String {
        let length = allowsEmpty ? "at most \(maximumLength)" : "1 to \(maximumLength)"
        let controls = allowsLineFeedAndTab ? "control characters other than line feed and tab" : "control characters"
        return "a string of \(length) characters without \(controls)"
    }

    /// A message for the first way `text` breaks the rule, or nil if it follows it.
    package func problem(with text: String) -> String? {
        // Control characters are single UTF-8 bytes, and each scalar has exactly one byte that is not a
        // continuation byte (10xxxxxx), so scanning bytes is enough and much faster than decoding scalars.
        var text = text
        let (length, firstControl) = text.withUTF8(scan)
        if length == 0, !allowsEmpty {
            return "the string is empty; allowed: \(allowed)."
        }
        if length > maximumLength {
            return "the text is \(length) characters long; allowed: \(allowed)."
        }
        if let (byte, position) = firstControl {
            return "contains the control character \(MessageText.describe(Unicode.Scalar(byte))) at character \(position); allowed: \(allowed)."
        }
        return nil
    }

    /// The number of scalars in `bytes` (UTF-8), and its first forbidden control character with its
    /// position counted from 1.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (length: Int, firstControl: (byte: UInt8, position: Int)?) {
        var length = 0
        var firstControl: (byte: UInt8, position: Int)?
        for byte in bytes where byte & 0xC0 != 0x80 {
            length += 1
            if firstControl == nil, isForbidden(byte) {
                firstControl = (byte, length)
            }
        }
        return (length, firstControl)
    }

    private func isForbidden(_ byte: UInt8) -> Bool {
        guard byte < 0x20 || byte == 0x7F else { return false }
        return !(allowsLineFeedAndTab && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")))
    }
}
