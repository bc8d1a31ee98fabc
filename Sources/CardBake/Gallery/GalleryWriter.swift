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

    /// Makes the folder's gallery the one of `manifest` and returns each file's name and digest. When
    /// the page in place is the one recorded for this manifest's gallery version (the action cache
    /// keeps its digest), the page is not even made.
    func update(for manifest: EncodedManifest) async throws -> [(file: String, digest: ContentDigest)] {
        let version = Gallery.version(ofManifest: manifest.digest)
        let versionScript = Gallery.versionScript(version)
        let pageURL = folder.directory.appendingPathComponent(Gallery.pageName)
        if let recorded = await records.record(ContentDigest.self, for: version),
           (try? folder.statCache.digest(ofFileAt: pageURL)) == recorded {
            let versionDigest = try write(versionScript, as: Gallery.versionName)
            return [(Gallery.pageName, recorded), (Gallery.versionName, versionDigest)]
        }
        let gallery = Gallery(of: manifest)
        var written: [(file: String, digest: ContentDigest)] = []
        for (name, data) in gallery.files {
            written.append((name, try write(data, as: name)))
        }
        try await records.save(written[0].digest, for: version)
        return written
    }

    /// Removes the gallery cardbake wrote before, for a build asked for none; returns no files.
    func remove() throws -> [(file: String, digest: ContentDigest)] {
        if Gallery.fileNames.contains(where: { Gallery.isGalleryFile(at: folder.directory.appendingPathComponent($0)) }) {
            try journal.begin()
            Gallery.remove(in: folder.directory)
        }
        return []
    }

    /// Puts `data` at `name` in the folder unless it is there already; returns its digest.
    private func write(_ data: Data, as name: String) throws -> ContentDigest {
        let digest = ContentDigest.sha256(data)
        let path = folder.path(of: name)
        guard (try? folder.statCache.digest(ofFileAtPath: path)) != digest else { return digest }
        try journal.begin()
        try AtomicFileWriter.write(data, to: URL(fileURLWithPath: path))
        try folder.statCache.record(digest, forFileAtPath: path)
        return digest
    }
}
