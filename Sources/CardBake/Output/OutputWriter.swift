import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The write stage: brings the output folder in line with a finished build. Links each card's
/// bitmaps out of the content-addressed store, each checked first (copied where links fail; files
/// already up to date are skipped), removes files of cards that left the catalog, and writes the
/// manifest's changed pages, then its root atomically.
struct OutputWriter: Sendable {
    let folder: OutputFolder
    let records: RecordCache
    /// Noted before the folder's first change, so that a build killed part-way is cleaned up after.
    let journal: WriteJournal

    /// Writes a card's `files` (``CardFile/files(of:)`` of its entry). Throws
    /// ``OutputError/missingBlob(file:)`` when the store lost a bitmap after it was looked up, and the
    /// ``FileSystemError`` of a failed write.
    func write(_ files: [CardFile]) async throws {
        for file in files {
            try await materialize(file.digest, as: file.file)
        }
    }

    /// What replacing the manifest did: the root's digest, the page files it names with theirs (sorted
    /// by file), and the files of the previous manifest it removed.
    struct ManifestReplacement {
        let digest: ContentDigest
        let pages: [(file: String, digest: ContentDigest)]
        let removed: [String]
    }

    /// Makes `manifest` the output folder's manifest (``replaceManifest(generator:count:entry:files:)``).
    func replaceManifest(with manifest: CardManifest) throws -> ManifestReplacement {
        try replaceManifest(writtenBy: manifest.written(page:), files: { manifest.files })
    }

    /// Makes the manifest of `generator` with `count` entries, `entry(0)`, `entry(1)`, …, which name
    /// `files` (asked for only when there is a previous manifest), the output folder's: each page
    /// written unless the folder has it already (pages are named by their bytes, so an unchanged page is
    /// never written again), then the root replaced atomically unless it already has these bytes; then
    /// removes the files the previous manifest named that this one does not (only files cardbake wrote),
    /// and the pages neither names. Returns the removed card files.
    func replaceManifest(generator: String, count: Int, entry: (Int) throws -> ManifestWriter.PageEntry,
                         files: () throws -> Set<String>) throws -> ManifestReplacement {
        try replaceManifest(writtenBy: { page in
            var writer = ManifestWriter(generator: generator, page: page)
            for index in 0..<count {
                try writer.add(entry(index))
            }
            return try writer.finish()
        }, files: files)
    }

    private func replaceManifest(writtenBy write: (_ page: @escaping (Data) throws -> ContentDigest) throws -> Data,
                                 files: () throws -> Set<String>) throws -> ManifestReplacement {
        let previous = folder.manifestInPlace.outline
        let pages = Mutex<[String: ContentDigest]>([:])
        let root = try write { [folder, journal] bytes in
            let digest = ContentDigest.sha256(bytes)
            let file = ManifestPaging.file(for: digest)
            try folder.put(bytes, digest: digest, as: file, journal: journal)
            pages.withLock { $0[file] = digest }
            return digest
        }
        let digest = try folder.replace(folder.manifestURL, journal: journal) { try $0(root) }
        let written = pages.withLock { $0 }
        // The previous manifest's pages stay until the next build, so that a reader that opened its
        // root as this build replaced it can still read them.
        folder.removePages(keeping: Set(written.keys).union(previous?.pages ?? []))
        let removed = try previous.map { OutputFolder.remove($0.files.subtracting(try files()), in: folder.directory) } ?? []
        return ManifestReplacement(digest: digest, pages: written.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                   removed: removed)
    }

    /// Runs `body`, which writes the folder's files and then its manifest. When it throws, the folder
    /// is rolled back to the manifest on disk before the error goes on: every file it lists gets back
    /// the bytes it lists (``OutputBackup``), and the card files this build wrote that it does not list
    /// are removed, so the folder holds what that manifest describes, old or new, and nothing more.
    func replacingFiles<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            let result = try await body()
            backup.discard()
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// What the journal would do in the next build after a kill, done now: restores the kept files,
    /// removes the files the journal noted that the manifest on disk does not name, and removes the
    /// note. When there is a manifest but it cannot be read, only the kept files go back, and the note
    /// stays for the next build.
    private func rollBack() {
        backup.restore()
        guard let noted = journal.noted else { return }
        let listed: Set<String>
        if let outline = CardManifest.Outline.read(from: folder.manifestURL, digest: ContentDigest.sha256OfData) {
            listed = outline.files
        } else if access(folder.manifestURL.fileSystemPath, F_OK) != 0 && errno == ENOENT {
            listed = []
        } else {
            return
        }
        _ = OutputFolder.remove(noted.subtracting(listed), in: folder.directory)
        journal.finish()
    }

    private var backup: OutputBackup { OutputBackup(directory: folder.directory) }

    /// Puts the blob's bytes at `file` unless they are there already, keeping the bytes it replaces:
    /// a hard link to the store's file where there is one (checked intact first, as every time it is
    /// linked), so the bitmap is on disk once; else its bytes.
    private func materialize(_ blob: ContentDigest, as file: String) async throws {
        try await folder.place(blob, as: file, journal: journal, keeping: backup, source: {
            if let stored = await records.store.blobFile(blob) { return .file(stored) }
            guard let data = await records.store.blob(blob) else { throw OutputError.missingBlob(file: file) }
            return .bytes(data)
        })
    }

    /// Puts the file at `source`, whose bytes have `digest`, at `file` (relative to the folder) unless
    /// it is there already, linked or copied, keeping the bytes it replaces; `source` is asked for
    /// only when the file must be placed.
    func place(_ digest: ContentDigest, as file: String, from source: @autoclosure () throws -> String) async throws {
        try await folder.place(digest, as: file, from: try source(), journal: journal, keeping: backup)
    }
}

/// The output folder could not be brought up to date.
enum OutputError: Error, Sendable, CustomStringConvertible {
    /// The store lost a bitmap between the look-up and the write (something outside cardbake removed it).
    case missingBlob(file: String)

    var description: String {
        switch self {
        case let .missingBlob(file):
            "the cache lost the bitmap for \(file) during the build; run the build again"
        }
    }
}
