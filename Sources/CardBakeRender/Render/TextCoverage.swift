import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CTextRaster
import Foundation

/// A font file a text is drawn from, and its content's digest.
package struct FontFile: Sendable, Hashable, Fingerprintable {
    package let file: URL
    package let digest: ContentDigest

    /// The content, not the path.
    package func fingerprint(into key: inout Fingerprint) {
        key.add("file", digest)
    }
}

/// How a text is drawn in a font: the font files Pango takes its glyphs from, fallbacks included,
/// and the characters no installed font has, which it draws as boxes showing their code points.
package struct TextCoverage: Sendable, Hashable {
    /// In order of first use; the requested font's file among them when it draws any character.
    package let fonts: [FontFile]
    package let missing: [Unicode.Scalar]

    /// The files and missing characters of `text` laid out in `font` at `size` points; the files
    /// not yet digested.
    package static func layOut(_ text: String, font: TextFont, size: Double) throws(RenderError) -> (files: [URL], missing: [Unicode.Scalar]) {
        var coverage = ctext_coverage()
        var error: UnsafeMutablePointer<CChar>?
        let status = font.withCFont { font in
            withUnsafePointer(to: font) { ctext_coverage_of(text, $0, size, &coverage, &error) }
        }
        guard status == 0 else {
            defer { ctext_error_free(error) }
            throw .text(error.map { String(cString: $0) } ?? "unknown error")
        }
        defer { ctext_coverage_free(&coverage) }
        let files = (0..<Int(coverage.file_count)).map { URL(fileURLWithPath: String(cString: coverage.files[$0]!)) }
        let missing = (0..<Int(coverage.missing_count)).compactMap { Unicode.Scalar(coverage.missing[$0]) }
        return (files, missing)
    }
}

/// The font files a card's title and description are drawn from, as Pango chooses them now: a card key
/// covers them all, so a fallback font installed, removed or changed (emoji, CJK) makes the card stale.
package struct DrawnFonts: Sendable, Hashable, Fingerprintable {
    package let title: [FontFile]
    package let description: [FontFile]

    package init(title: [FontFile], description: [FontFile]) {
        self.title = title
        self.description = description
    }

    package func fingerprint(into key: inout Fingerprint) {
        for (name, fonts) in [("title", title), ("description", description)] {
            key.add(name, fonts.count)
            for font in fonts {
                key.add("font", font)
            }
        }
    }
}

/// Characters of a text no installed font draws: Pango draws each as a box showing its code point.
package struct UndrawableText: Error, Sendable, CustomStringConvertible {
    package let characters: [Unicode.Scalar]

    package init(characters: [Unicode.Scalar]) {
        self.characters = characters
    }

    package var description: String {
        let codes = characters.map { MessageText.hex4($0.value) }
        let them = characters.count.word("it", plural: "them")
        return "no installed font can draw \(codes.map { "U+" + $0 }.joined(separator: ", ")), drawn as boxes instead;"
            + " install a font that has \(them) (`fc-list ':charset=\(codes[0])'` lists those that do) or remove \(them)."
    }
}
