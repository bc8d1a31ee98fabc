import CardBakeFiles
import Foundation

/// Turns file paths written in a catalog into absolute file URLs.
///
/// Relative paths are relative to the catalog's folder. The result is normalised lexically
/// (``NormalPath``), so symbolic links are kept and the file need not exist.
package struct CatalogPathResolver {
    /// The catalog's folder as an absolute path.
    private let folder: String

    package init(catalogFile: URL) {
        folder = catalogFile.absoluteURL.deletingLastPathComponent().fileSystemPath
    }

    package func resolve(_ path: String) -> URL {
        URL(filePath: NormalPath.of(path, relativeTo: folder), directoryHint: .notDirectory)
    }
}
