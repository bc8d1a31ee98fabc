import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CTextRaster
import Foundation
import Synchronization

/// A text style whose font cannot be used.
package struct FontFailure: Error, Sendable {
    /// The style field at fault: `style.title` or `style.description`.
    package let field: String
    package let error: RenderError
}

/// Finds the font file behind each family or registers a style's own font file, each once per build,
/// and the font files a text is drawn from.
///
/// Font files are registered with fontconfig for the whole process; resolve every card's fonts
/// before worker threads start drawing text, so their font maps see the registered files.
package final class FontResolver: Sendable {
    private let resolved = Mutex<[FontRequest: Result<ResolvedFont, RenderError>]>([:])
    /// The files texts were drawn from so far; not each text's coverage, which would grow with the catalog.
    private let drawn = Mutex<Set<URL>>([])
    private let digests = Mutex<[URL: Result<ContentDigest, RenderError>]>([:])

    package init() {}

    /// The font files resolved or drawn from so far (fallbacks included), whatever cards they were for.
    package var files: Set<URL> {
        let requested = resolved.withLock { Set($0.values.compactMap { try? $0.get().file }) }
        return requested.union(drawn.withLock { $0 })
    }

    /// The fonts of a card's title and description; a failure names the text style at fault.
    package func fonts(for style: CardStyle) throws(FontFailure) -> ResolvedFonts {
        func resolve(_ text: TextStyle, field: String) throws(FontFailure) -> ResolvedFont {
            do {
                return try font(for: text.fontRequest)
            } catch {
                throw FontFailure(field: field, error: error)
            }
        }
        return ResolvedFonts(title: try resolve(style.title, field: "style.title"),
                             description: try resolve(style.description, field: "style.description"))
    }

    /// Safe from many threads: each font is resolved once, under the lock, so a file is registered
    /// with fontconfig once however many cards plan at the same time.
    package func font(for request: FontRequest) throws(RenderError) -> ResolvedFont {
        let result = resolved.withLock { resolved in
            if let known = resolved[request] { return known }
            let result = Result { () throws(RenderError) -> ResolvedFont in try Self.resolve(request) }
            resolved[request] = result
            return result
        }
        return try result.get()
    }

    /// The font files `text` (in `language`, nil for none given) is drawn from in `font` at `size`
    /// points, fallbacks included, with their digests, and the characters no installed font draws: a
    /// quick layout with no frame (which fonts draw a text does not depend on one); safe from many threads.
    package func coverage(of text: String, in font: ResolvedFont, language: LocaleTag? = nil,
                          size: Double) throws(RenderError) -> TextCoverage {
        let (files, missing) = try TextCoverage.layOut(text, font: font.textFont(in: language), size: size)
        return try coverage(drawnFrom: files, missing: missing)
    }

    /// The coverage of a text known to be drawn from `files` (in order of first use) with `missing`
    /// characters, as an earlier layout found: the files' digests are those of their contents now.
    package func coverage(drawnFrom files: [URL], missing: [Unicode.Scalar]) throws(RenderError) -> TextCoverage {
        drawn.withLock { $0.formUnion(files) }
        return TextCoverage(fonts: try files.map { (file) throws(RenderError) in FontFile(file: file, digest: try digest(of: file)) },
                            missing: missing)
    }

    /// A fingerprint of every font file fontconfig lists now, by path, size and modification time:
    /// it changes when a font is installed, removed or replaced, whichever text it would draw.
    package static func installedFonts() -> ContentDigest {
        var files: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count: Int32 = 0
        var key = Fingerprint(domain: "installed-fonts")
        guard ctext_installed_font_files(&files, &count) == 0, let files else { return key.digest }
        defer { ctext_files_free(files, count) }
        for path in (0..<Int(count)).compactMap({ files[$0].map { String(cString: $0) } }).sorted() {
            var status = stat()
            let found = stat(path, &status) == 0
            key.add("file", path)
            key.add("size", found ? Int(status.st_size) : -1)
            key.add("modified", found ? Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec) : -1)
        }
        return key.digest
    }

    /// The digest of a font file's content, read once.
    private func digest(of file: URL) throws(RenderError) -> ContentDigest {
        if let known = digests.withLock({ $0[file] }) { return try known.get() }
        let result = Result { () throws(RenderError) in try Self.digest(of: file) }
        digests.withLock { $0[file] = result }
        return try result.get()
    }

    /// The face fontconfig picks for `request`; a font file is registered with fontconfig first.
    private static func resolve(_ request: FontRequest) throws(RenderError) -> ResolvedFont {
        var face = ctext_face()
        defer { ctext_face_free(&face) }
        let (weight, italic) = (Int32(request.weight ?? 0), Int32(request.italic ? 1 : 0))
        var known: (file: URL, digest: ContentDigest)?
        switch request.source {
        case .family(let family):
            guard ctext_find_face(family, weight, italic, &face) == 0 else { throw .unknownFont(family: family) }
        case .file(let file):
            // Read first, so that a file that cannot be read is reported as such.
            known = (file, try digest(of: file))
            guard ctext_register_face(file.path, weight, italic, &face) == 0 else {
                throw .unusableFontFile(path: file.path, reason: "it is not a font fontconfig can read")
            }
        }
        let file = URL(fileURLWithPath: String(cString: face.file))
        let digest = if let known, known.file == file { known.digest } else { try digest(of: file) }
        return ResolvedFont(family: String(cString: face.font.family), weight: Int(face.font.weight),
                            italic: face.font.italic != 0, file: file, digest: digest)
    }

    private static func digest(of file: URL) throws(RenderError) -> ContentDigest {
        do {
            return try ContentDigest.sha256(ofFileAt: file)
        } catch {
            throw .unusableFontFile(path: file.path, reason: "\(error)")
        }
    }
}
