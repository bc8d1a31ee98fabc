import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation

/// Keeps an output folder's gallery in line with its manifest, writing in proportion to the change:
/// each chunk the folder lacks, then the page and the version (each atomically, only when its bytes
/// change, under the output folder's write journal), then removes the chunks the page no longer names.
struct GalleryWriter: Sendable {
    let folder: OutputFolder
    let records: RecordCache
    let journal: WriteJournal

    /// Makes the folder's gallery the one of the manifest of `generator` with `cards`, whose bytes
    /// have the SHA-256 `digest`, and returns each file's name and digest: the page, the version, then
    /// the chunks in the page's order (``Gallery/files(in:)``'s order). When the page in place is the
    /// one recorded for this manifest's gallery version (the action cache keeps its digest) and every
    /// chunk it names is in place, the gallery is not even made.
    func update(cards: GalleryCards, generator: String, digest: ContentDigest) async throws
        -> [(file: String, digest: ContentDigest)] {
        let version = Gallery.version(ofManifest: digest)
        var files: [(file: String, digest: ContentDigest)]
        if let inPlace = await recordedPage(version: version) {
            files = inPlace
        } else {
            let gallery = Gallery(cards: cards, generator: generator, manifestDigest: digest)
            let page = try gallery.make { chunk in
                if !folder.holds(chunk.digest, as: chunk.file) {
                    _ = try put(as: chunk.file) { try $0(chunk.bytes) }
                }
            }
            let pageDigest = try put(as: Gallery.pageName) { try $0(page.html) }
            try await records.save(pageDigest, for: version)
            files = [(Gallery.pageName, pageDigest)] + Self.chunkDigests(page.chunkFiles)
        }
        let versionDigest = try put(as: Gallery.versionName) { try $0(Gallery.versionScript(version)) }
        files.insert((Gallery.versionName, versionDigest), at: 1)
        try removeChunks(keeping: Set(files.map(\.file)))
        return files
    }

    /// The page in place and its chunks, with their digests, when the page is the one recorded for
    /// `version` and every chunk it names is in place with its bytes; else nil.
    private func recordedPage(version: ContentDigest) async -> [(file: String, digest: ContentDigest)]? {
        let pageURL = folder.directory.appendingPathComponent(Gallery.pageName)
        guard let recorded = await records.record(ContentDigest.self, for: version),
              (try? folder.statCache.digest(ofFileAt: pageURL)) == recorded,
              let chunks = (try? Data(contentsOf: pageURL)).flatMap(GalleryPage.chunkFiles(in:)) else { return nil }
        let digests = Self.chunkDigests(chunks)
        guard digests.allSatisfy({ folder.holds($0.digest, as: $0.file) }) else { return nil }
        return [(Gallery.pageName, recorded)] + digests
    }

    /// Each chunk file with the digest its name states.
    private static func chunkDigests(_ files: [String]) -> [(file: String, digest: ContentDigest)] {
        files.map { file in
            guard let digest = GalleryChunk.digest(ofFileNamed: (file as NSString).lastPathComponent) else {
                preconditionFailure("a page names its chunks by digest")
            }
            return (file, digest)
        }
    }

    /// Removes the chunks cardbake wrote that `keeping` does not name, noting the change in the journal first.
    private func removeChunks(keeping: Set<String>) throws {
        guard !Gallery.unwantedChunks(in: folder.directory, keeping: keeping).isEmpty else { return }
        try journal.begin()
        Gallery.removeChunks(in: folder.directory, keeping: keeping)
    }

    /// Removes the gallery cardbake wrote before, for a build asked for none; returns no files.
    func remove() throws -> [(file: String, digest: ContentDigest)] {
        let page = folder.directory.appendingPathComponent(Gallery.pageName)
        let version = folder.directory.appendingPathComponent(Gallery.versionName)
        if Gallery.isGalleryFile(at: page) || Gallery.isGalleryFile(at: version)
            || !Gallery.unwantedChunks(in: folder.directory, keeping: []).isEmpty {
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
