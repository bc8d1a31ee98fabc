import Foundation

/// Turns file paths written in a catalog into absolute file URLs.
///
/// Relative paths are relative to the catalog's folder. The result is standardized lexically —
/// `.` and `..` segments and repeated slashes removed — without touching the file system,
/// so symbolic links are kept and the file need not exist.
package struct CatalogPathResolver {
    /// The catalog's folder as an absolute path.
    private let folder: String

    package init(catalogFile: URL) {
        folder = catalogFile.absoluteURL.deletingLastPathComponent().path
    }

    /// Does the work of `URL(filePath:relativeTo:).standardizedFileURL`, which is slow enough
    /// to dominate validating a catalog of 100,000 cards.
    package func resolve(_ path: String) -> URL {
        let absolute = path.hasPrefix("/") ? path : folder + "/" + path
        var standardized: [UInt8] = []
        standardized.reserveCapacity(absolute.utf8.count)
        var segmentStarts: [Int] = []
        for segment in absolute.utf8.split(separator: UInt8(ascii: "/")) {
            if segment.elementsEqual(".".utf8) {
                continue
            }
            if segment.elementsEqual("..".utf8) {
                standardized.removeSubrange((segmentStarts.popLast() ?? 0)...)
                continue
            }
            segmentStarts.append(standardized.count)
            standardized.append(UInt8(ascii: "/"))
            standardized.append(contentsOf: segment)
        }
        return URL(filePath: standardized.isEmpty ? "/" : String(decoding: standardized, as: UTF8.self), directoryHint: .notDirectory)
    }
}
