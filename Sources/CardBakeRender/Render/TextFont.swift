import CardBakeCatalog
import CardBakeManifest
import CTextRaster

/// What Pango is asked for to draw a text: a family at a weight (on CSS's scale) and slant, which the
/// fallback fonts it takes for other scripts follow, and the text's language, which picks among
/// those fonts and their glyph forms (Japanese and Chinese shapes of one Han character).
package struct TextFont: Sendable, Hashable {
    package let family: String
    package let weight: Int
    package let italic: Bool
    /// nil: Pango's default, for a catalog without `locales`.
    package let language: LocaleTag?

    package init(family: String, weight: Int = 400, italic: Bool = false, language: LocaleTag? = nil) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.language = language
    }

    /// Calls `body` with this font as CTextRaster takes it, valid for the call only.
    func withCFont<Result, Failure>(_ body: (ctext_font) throws(Failure) -> Result) throws(Failure) -> Result {
        // A typed throw cannot pass through withCString's closure, so the outcome is carried out of it.
        let outcome: Swift.Result<Result, Failure> = family.withCString { family in
            withOptionalCString(language?.description) { language in
                Swift.Result { () throws(Failure) in
                    try body(ctext_font(family: family, weight: Int32(weight), italic: italic ? 1 : 0, language: language))
                }
            }
        }
        return try outcome.get()
    }

    private func withOptionalCString<Value>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Value) -> Value {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }
}

extension ResolvedFont {
    /// What Pango is asked for to draw text in `language` (nil: none given) in this font.
    package func textFont(in language: LocaleTag?) -> TextFont {
        TextFont(family: family, weight: weight, italic: italic, language: language)
    }
}
