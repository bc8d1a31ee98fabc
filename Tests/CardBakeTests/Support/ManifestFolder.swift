import CardBakeCache
import CardBakeManifest
import Foundation

extension CardManifest {
    /// Writes the manifest into `folder` as a build lays it out: its root as `manifest.json` and its
    /// pages under `manifest/`. Returns the root's URL and the page files.
    @discardableResult
    func write(into folder: URL) throws -> (root: URL, pages: Set<String>) {
        var pages: Set<String> = []
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(ManifestPaging.folder),
                                                withIntermediateDirectories: true)
        let root = try written { bytes in
            let digest = ContentDigest.sha256(bytes)
            let file = ManifestPaging.file(for: digest)
            try bytes.write(to: folder.appendingPathComponent(file))
            pages.insert(file)
            return digest
        }
        let url = folder.appendingPathComponent(CardManifest.fileName)
        try root.write(to: url)
        return (url, pages)
    }

    /// The digest of the manifest's root as a build writes it, which names every page by its digest:
    /// the identity of the whole manifest.
    var rootDigest: ContentDigest {
        get throws { ContentDigest.sha256(try written(page: ContentDigest.sha256OfData)) }
    }
}
