import CardBakeCatalog
import CTextRaster

/// What Pango is asked for to draw a text: a family at a weight (on CSS's scale) and slant, which the
/// fallback fonts it takes for other scripts follow.
package struct TextFont: Sendable, Hashable {
    package let family: String
    package let weight: Int
    package let italic: Bool

    package init(family: String, weight: Int = 400, italic: Bool = false) {
        self.family = family
        self.weight = weight
        self.italic = italic
    }

    /// Calls `body` with this font as CTextRaster takes it, valid for the call only.
    func withCFont<Result, Failure>(_ body: (ctext_font) throws(Failure) -> Result) throws(Failure) -> Result {
        // A typed throw cannot pass through withCString's closure, so the outcome is carried out of it.
        let outcome: Swift.Result<Result, Failure> = family.withCString { family in
            Swift.Result { () throws(Failure) in
                try body(ctext_font(family: family, weight: Int32(weight), italic: italic ? 1 : 0))
            }
        }
        return try outcome.get()
    }
}

extension ResolvedFont {
    /// What Pango is asked for to draw in this font.
    package var textFont: TextFont { TextFont(family: family, weight: weight, italic: italic) }
}
