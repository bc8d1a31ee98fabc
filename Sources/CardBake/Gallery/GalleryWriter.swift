import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation

/// Keeps an output folder's gallery in line with its manifest: each file written atomically, only
/// when its bytes change, under the output folder's write journal.
struct GalleryWriter: Sendable {
    let folder: OutputFolder
    let records: RecordCache
    let journal: WriteJournal

    /// Makes the folder's gallery the one of the manifest of `generator` with `cards`, whose bytes
    /// have the SHA-256 `digest`, and returns each file's name and digest. When the page in place is
    /// the one recorded for this manifest's gallery version (the action cache keeps its digest), the
    /// page is not even made.
    func update(cards: GalleryCards, generator: String, digest: ContentDigest) async throws
        -> [(file: String, digest: ContentDigest)] {
        let version = Gallery.version(ofManifest: digest)
        let pageURL = folder.directory.appendingPathComponent(Gallery.pageName)
        let pageDigest: ContentDigest
        if let recorded = await records.record(ContentDigest.self, for: version),
           (try? folder.statCache.digest(ofFileAt: pageURL)) == recorded {
            pageDigest = recorded
        } else {
            let gallery = Gallery(cards: cards, generator: generator, manifestDigest: digest)
            pageDigest = try put(as: Gallery.pageName) { try gallery.page.write(to: $0) }
            try await records.save(pageDigest, for: version)
        }
        let versionDigest = try put(as: Gallery.versionName) { try $0(Gallery.versionScript(version)) }
        return [(Gallery.pageName, pageDigest), (Gallery.versionName, versionDigest)]
    }

    /// Removes the gallery cardbake wrote before, for a build asked for none; returns no files.
    func remove() throws -> [(file: String, digest: ContentDigest)] {
        if Gallery.fileNames.contains(where: { Gallery.isGalleryFile(at: folder.directory.appendingPathComponent($0)) }) {
            try journal.begin()
            Gallery.remove(in: folder.directory)
        }
        return []
    }

    /// Puts the bytes `produce` hands its sink at `name` in the folder, unless the file there has
    /// them already; returns their digest.
    private func put(as name: String, _ produce: (_ sink: (Data) throws -> Void) throws -> Void) throws -> ContentDigest {
        try folder.replace(folder.directory.appendingPathComponent(name), journal: journal, with: produce)
    }
}
