import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// The write stage: brings the output folder in line with a finished build. Copies each card's
/// bitmaps out of the content-addressed store (skipping files already up to date), removes files
/// of cards that left the catalog, and replaces the manifest atomically.
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

    /// Makes `manifest` the output folder's manifest, replacing the file atomically unless it already
    /// has these bytes, and removes the files the previous manifest named that this one does not (only
    /// files cardbake wrote). Returns the manifest's digest and what it removed.
    func replaceManifest(with manifest: CardManifest) throws -> (digest: ContentDigest, removed: [String]) {
        try replaceManifest(encodedBy: manifest.encode(to:), files: { manifest.files })
    }

    /// ``replaceManifest(with:)`` for the manifest of `generator` with `count` entries whose texts
    /// are `element(0)`, `element(1)`, … (``CardManifest/elementText(of:)``) and which name `files`,
    /// asked for only when there is a previous manifest: no entry is decoded, and the manifest is
    /// never all in memory.
    func replaceManifest(generator: String, count: Int, element: (Int) throws -> Data,
                         files: () throws -> Set<String>) throws -> (digest: ContentDigest, removed: [String]) {
        try replaceManifest(encodedBy: { try CardManifest.encode(generator: generator, count: count, element: element, to: $0) },
                            files: files)
    }

    private func replaceManifest(encodedBy encode: (_ sink: (Data) throws -> Void) throws -> Void,
                                 files: () throws -> Set<String>) throws -> (digest: ContentDigest, removed: [String]) {
        let previous = folder.manifestInPlace.outline
        let digest = try folder.replace(folder.manifestURL, journal: journal, with: encode)
        guard let previous else { return (digest, []) }
        return (digest, OutputFolder.remove(previous.files.subtracting(try files()), in: folder.directory))
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
        if let outline = CardManifest.Outline.read(from: folder.manifestURL) {
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
