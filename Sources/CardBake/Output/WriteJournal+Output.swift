import CardBakeFiles
import CardBakeManifest
import Foundation

extension WriteJournal {
    /// The journal of an output folder for a build of the cards of `outline`. Its note lists their
    /// files and those the manifest in place names, which the build may remove. After a killed build,
    /// the files the manifest in place names get back the bytes it lists (``OutputBackup``), and the
    /// files its note listed that the manifest does not name are removed: the killed build wrote them
    /// for a manifest it never wrote, or was removing them for the one it did. Temporary files are
    /// looked for only where cardbake writes: the folder itself, `cards/` and its locales' folders, the
    /// manifest's pages and the gallery's chunks.
    static func output(_ folder: OutputFolder, outline: CatalogOutline) -> WriteJournal {
        output(folder, writing: { Set(outline.cards.flatMap(outline.files(of:))) })
    }

    /// The journal of an output folder for a command that may write `writing()` (relative paths),
    /// as ``output(_:outline:)`` describes.
    static func output(_ folder: OutputFolder, writing: @escaping @Sendable () -> Set<String>) -> WriteJournal {
        let inPlace = folder.manifestInPlace
        return WriteJournal(folder: folder.directory, areas: ["", "cards", ManifestPaging.folder, GalleryChunk.folder] + OutputFolder.localeFolders(in: folder.directory)) { unfinished in
            OutputBackup(directory: folder.directory).restore()
            _ = OutputFolder.remove(unfinished.subtracting(inPlace.outline?.files ?? []), in: folder.directory)
        } listing: {
            (inPlace.outline?.files ?? []).union(writing())
        }
    }
}
