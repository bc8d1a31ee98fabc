import CardBakeCache
import CardBakeManifest
import Foundation

/// Reads catalog files into validated ``Catalog`` values.
///
/// Validation is all or nothing: every problem in the file is collected in one pass and thrown
/// together as ``CatalogError/invalid(file:problems:)``, and a catalog with any problem yields no cards.
/// Image and font files are resolved to absolute paths but not opened; a missing image is a problem
/// of building that card, not of the catalog.
public enum CatalogLoader {
    /// Reads and validates a catalog file.
    /// - Parameters:
    ///   - file: the catalog; relative `image` and `fontFile` paths are relative to its folder,
    ///     and messages show this URL's path as given (a relative path stays relative).
    ///   - overrides: applied over the catalog's style and every card's before they are validated, so
    ///     a style they make invalid is refused as one the catalog makes invalid.
    /// - Throws: ``CatalogError``.
    public static func load(from file: URL, overrides: StyleOverrides = StyleOverrides()) throws -> Catalog {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CatalogError.unreadable(file: file, reason: reason(for: error))
        }
        return try decode(data, file: file, overrides: overrides)
    }

    /// Validates catalog bytes.
    /// - Parameters:
    ///   - file: where the bytes come from, used in messages and to resolve relative paths
    ///     (relative to the file's folder); it is not read.
    ///   - overrides: as for ``load(from:overrides:)``.
    /// - Throws: ``CatalogError/invalidJSON(file:line:column:reason:)`` or ``CatalogError/invalid(file:problems:)``.
    public static func decode(_ data: Data, file: URL, overrides: StyleOverrides = StyleOverrides()) throws -> Catalog {
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONDocument.parse(data)
        } catch {
            throw CatalogError.invalidJSON(file: file, line: error.position.line, column: error.position.column, reason: error.reason)
        }
        let log = ProblemLog()
        let reader = SchemaReader(log: log, paths: CatalogPathResolver(catalogFile: file))
        let decoded = CatalogDecoder(reader: reader, overrides: overrides).decode(root)
        guard log.count == 0 else {
            throw CatalogError.invalid(file: file, problems: log.problemsInDocumentOrder)
        }
        return Catalog(file: file, style: decoded.style, cards: decoded.cards,
                       digest: digest(catalog: data, strings: decoded.stringsDigest), remoteImages: decoded.remoteImages,
                       locales: decoded.locales)
    }

    /// The digest a catalog's build is keyed by: of its bytes, and of its String Catalog's with one.
    /// A catalog with a String Catalog therefore never matches its file's digest alone, so a build
    /// keeps no outline of it (``Catalog/digest``) and always reads both files.
    private static func digest(catalog data: Data, strings: ContentDigest?) -> ContentDigest {
        guard let strings else { return ContentDigest.sha256(data) }
        var digest = Fingerprint(domain: "catalog-with-strings")
        digest.add("catalog", ContentDigest.sha256(data))
        digest.add("strings", strings)
        return digest.digest
    }

    /// The operating system's reason, e.g. `No such file or directory`, when there is one.
    private static func reason(for error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return error.localizedDescription
    }
}
