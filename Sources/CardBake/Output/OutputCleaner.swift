import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation

/// Removes what cardbake wrote, and nothing else.
public enum OutputCleaner {
    /// Removes the cards the manifest names, the manifest itself and its pages, the gallery cardbake
    /// wrote and a shard build's ``ShardRecord``, then `cards/` and `manifest/` if they are empty; first, what a build killed
    /// part-way left (see ``WriteJournal``), its scratch folder included.
    public static func removeOutput(at directory: URL) throws {
        let folder = OutputFolder(directory: directory, statCache: StatCache(loadingFrom: nil))
        _ = WriteJournal.output(folder, writing: { [] })
        ShardRecord.remove(from: directory)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(CacheWorkspace.scratchFolder))
        let manifestURL = folder.manifestURL
        Gallery.remove(in: directory)
        guard let manifest = folder.manifestInPlace.outline else { return }
        _ = OutputFolder.remove(manifest.files, in: directory)
        try FileManager.default.removeItem(at: manifestURL)
        folder.removePages(keeping: [])
        let cards = directory.appendingPathComponent("cards")
        if (try? FileManager.default.contentsOfDirectory(atPath: cards.path))?.isEmpty == true {
            try FileManager.default.removeItem(at: cards)
        }
    }

    /// Removes the cache folder.
    public static func removeCache(at directory: URL) throws {
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        try FileManager.default.removeItem(at: directory)
    }
}
