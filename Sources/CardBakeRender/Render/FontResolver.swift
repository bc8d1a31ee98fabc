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

/// Finds the font file behind each family or registers a style's own font file, once per build.
///
/// Font files are registered with fontconfig for the whole process; resolve every card's fonts
/// before worker threads start drawing text, so their font maps see the registered files.
package final class FontResolver: Sendable {
    private let resolved = Mutex<[FontRequest: Result<ResolvedFont, RenderError>]>([:])

    package init() {}

    /// The font files resolved so far, whatever cards they were for.
    package var files: Set<URL> {
        resolved.withLock { Set($0.values.compactMap { try? $0.get().file }) }
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
            let result = Result { () throws(RenderError) -> ResolvedFont in
                switch request {
                case .file(let file): try Self.register(file)
                case .family(let family): try Self.find(family)
                }
            }
            resolved[request] = result
            return result
        }
        return try result.get()
    }

    private static func find(_ family: String) throws(RenderError) -> ResolvedFont {
        var path: UnsafeMutablePointer<CChar>?
        guard ctext_find_family(family, &path) == 0, let path else {
            throw .unknownFont(family: family)
        }
        defer { ctext_error_free(path) }
        let file = URL(fileURLWithPath: String(cString: path))
        return ResolvedFont(family: family, file: file, digest: try digest(of: file))
    }

    private static func register(_ file: URL) throws(RenderError) -> ResolvedFont {
        let digest = try digest(of: file)
        var family: UnsafeMutablePointer<CChar>?
        guard ctext_register_font_file(file.path, &family) == 0, let family else {
            throw .unusableFontFile(path: file.path, reason: "it is not a font fontconfig can read")
        }
        defer { ctext_error_free(family) }
        return ResolvedFont(family: String(cString: family), file: file, digest: digest)
    }

    private static func digest(of file: URL) throws(RenderError) -> ContentDigest {
        do {
            return try ContentDigest.sha256(ofFileAt: file)
        } catch {
            throw .unusableFontFile(path: file.path, reason: "\(error)")
        }
    }
}
