import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The output folder's layout, and what its files hold as the stat cache sees them.
struct OutputFolder: Sendable {
    let directory: URL
    let statCache: StatCache
    /// The manifest in the folder as the build found it, read once, when first asked for.
    let manifestInPlace: ManifestInPlace
    /// `directory`'s path, made once: a no-op build of 10,000 cards asks for 30,000 paths in it.
    private let directoryPath: String

    init(directory: URL, statCache: StatCache) {
        self.directory = directory
        directoryPath = directory.fileSystemPath
        self.statCache = statCache
        manifestInPlace = ManifestInPlace(url: directory.appendingPathComponent(CardManifest.fileName))
    }

    var manifestURL: URL { manifestInPlace.url }

    /// The folder's manifest read whole, its pages checked; nil when there is none or it cannot be read.
    func readManifest() -> CardManifest? {
        CardManifest.read(from: manifestURL, digest: ContentDigest.sha256OfData)
    }

    /// Relative path of a card's bitmap at one scale: in `cards/`, or `cards/<locale>/` for a card in
    /// a translated locale.
    static func file(for card: Card, scale: Int) -> String {
        file(id: card.id, scale: scale, fileExtension: card.style.output.kind.fileExtension,
             locale: card.isTranslation ? card.locale : nil)
    }

    /// Relative path of the bitmap at `scale` of the card `id`, in the format with `fileExtension`, in
    /// the folder of the translated `locale` if one is given.
    static func file(id: String, scale: Int, fileExtension: String, locale: LocaleTag? = nil) -> String {
        let folder = locale.map { "cards/\($0)/" } ?? "cards/"
        return "\(folder)\(id)@\(scale)x.\(fileExtension)"
    }

    /// Relative paths of a card's bitmaps in every locale: the source locale's in the order of its
    /// style's scales, then each translated locale's.
    static func files(for card: Card) -> [String] {
        card.inEveryLocale.flatMap { card in card.style.scales.map { file(for: card, scale: $0) } }
    }

    /// The absolute, normalised path of `file` (relative to the folder).
    func path(of file: String) -> String {
        directoryPath + "/" + file
    }

    /// Makes the file at `url` hold the bytes `produce` hands its sink: streamed to a temporary file
    /// beside it under `journal` and hashed on the way, then published unless the file in place has
    /// that digest (as the stat cache sees it), so the bytes are never all in memory. Returns their digest.
    func replace(_ url: URL, journal: WriteJournal,
                 with produce: (_ sink: (Data) throws -> Void) throws -> Void) throws -> ContentDigest {
        try journal.begin()
        let file = try DigestingFile(replacing: url)
        try produce { try file.append($0) }
        let digest = file.digest
        if (try? statCache.digest(ofFileAt: url)) == digest {
            file.discard()
        } else {
            try file.commit()
            try statCache.record(digest, forFileAt: url)
        }
        return digest
    }

    /// Whether `file` holds the bytes with `digest`.
    func holds(_ digest: ContentDigest, as file: String) -> Bool {
        (try? statCache.digest(ofFileAtPath: path(of: file))) == digest
    }

    /// Where the bytes of a file to place come from.
    enum Source {
        /// A file (an absolute path) holding them, found intact just now: hard-linked where the file
        /// system allows, so no bytes are copied, else copied.
        case file(String)
        /// The bytes themselves, written.
        case bytes(Data)
    }

    /// Puts `bytes`, whose digest is `digest`, at `file` unless the file there has them already,
    /// atomically, noting the change in `journal` first.
    func put(_ bytes: Data, digest: ContentDigest, as file: String, journal: WriteJournal) throws {
        guard !holds(digest, as: file) else { return }
        _ = try publish(.bytes(bytes), digest: digest, as: file, journal: journal, keeping: nil)
    }

    /// Puts the bytes with `digest` at `file` unless they are there already (as the stat cache sees
    /// it), atomically, noting the change in `journal` first and keeping the file it replaces in
    /// `backup`. `source` is asked for only when the file must be placed. Returns whether it linked,
    /// which changes the source's ctime.
    @discardableResult
    func place(_ digest: ContentDigest, as file: String, journal: WriteJournal, keeping backup: OutputBackup? = nil,
               source: () async throws -> Source) async throws -> Bool {
        guard !holds(digest, as: file) else { return false }
        guard let written = try publish(try await source(), digest: digest, as: file, journal: journal, keeping: backup) else {
            return true
        }
        PageCacheBudget.bitmaps.cached(path(of: file), bytes: written)
        return false
    }

    /// Makes `file` hold `source`'s bytes, which have `digest`: noted in `journal` first, the file it
    /// replaces kept in `backup`, linked where `source` is a file the file system can link, else written
    /// atomically; recorded in the stat cache. Returns the bytes written, nil when it linked.
    private func publish(_ source: Source, digest: ContentDigest, as file: String, journal: WriteJournal,
                         keeping backup: OutputBackup?) throws -> Int? {
        try journal.begin()
        try backup?.keep(file)
        let destination = path(of: file)
        let bytes: Data
        switch source {
        case .file(let path):
            if try AtomicFileWriter.link(URL(fileURLWithPath: path), to: URL(fileURLWithPath: destination)) {
                try statCache.record(digest, forFileAtPath: destination)
                return nil
            }
            bytes = try ReadableFile(path: path).readToEnd()
        case .bytes(let data):
            bytes = data
        }
        try AtomicFileWriter.write(bytes, to: URL(fileURLWithPath: destination))
        try statCache.record(digest, forFileAtPath: destination)
        return bytes.count
    }

    /// ``place(_:as:journal:keeping:source:)`` of `data`, asked for only when the file must be written.
    func place(_ digest: ContentDigest, as file: String, journal: WriteJournal, keeping backup: OutputBackup? = nil,
               data: () async throws -> Data) async throws {
        try await place(digest, as: file, journal: journal, keeping: backup) { .bytes(try await data()) }
    }

    /// ``place(_:as:journal:keeping:source:)`` of the file at `source` (an absolute path), asked for
    /// only when the file must be placed.
    @discardableResult
    func place(_ digest: ContentDigest, as file: String, from source: @autoclosure () throws -> String,
               journal: WriteJournal, keeping backup: OutputBackup? = nil) async throws -> Bool {
        try await place(digest, as: file, journal: journal, keeping: backup) { .file(try source()) }
    }

    /// Removes `files` (paths relative to `directory`) that are card files (``isCardFile(_:)``), then
    /// each locale's folder that this empties; a manifest read from disk could name anything. Returns
    /// what it removed, sorted.
    static func remove(_ files: Set<String>, in directory: URL) -> [String] {
        let removable = files.filter(isCardFile).sorted()
        for file in removable {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        for folder in Set(removable.map { ($0 as NSString).deletingLastPathComponent }) where folder != "cards" {
            // Fails, as it should, unless the folder is empty.
            rmdir(directory.appendingPathComponent(folder).fileSystemPath)
        }
        return removable
    }

    /// Removes the manifest pages in the folder but those `kept` names, and `manifest/` if that empties it.
    func removePages(keeping kept: Set<String>) {
        Self.removeUnnamed(in: ManifestPaging.folder, of: directory, keeping: kept, isOurs: ManifestPaging.isPage)
    }

    /// The files in `subfolder` of `directory` that `isOurs` says cardbake wrote and `kept` does not
    /// name (both relative to `directory`), sorted: the pages or chunks a new manifest or gallery no
    /// longer names, which cardbake writes under names of their own digests.
    static func unnamed(in subfolder: String, of directory: URL, keeping kept: Set<String>,
                        isOurs: (String) -> Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(subfolder).path)) ?? []
        return names.sorted().map { "\(subfolder)/\($0)" }.filter { !kept.contains($0) && isOurs($0) }
    }

    /// Removes ``unnamed(in:of:keeping:isOurs:)``, then `subfolder` if that empties it; returns what it removed.
    @discardableResult
    static func removeUnnamed(in subfolder: String, of directory: URL, keeping kept: Set<String>,
                              isOurs: (String) -> Bool) -> [String] {
        let removed = unnamed(in: subfolder, of: directory, keeping: kept, isOurs: isOurs).filter {
            (try? FileManager.default.removeItem(at: directory.appendingPathComponent($0))) != nil
        }
        // Fails, as it should, unless the folder is empty.
        rmdir(directory.appendingPathComponent(subfolder).fileSystemPath)
        return removed
    }

    /// The locales' folders in `directory`'s `cards/` (`cards/ar`), relative to `directory`.
    static func localeFolders(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cards").path)) ?? []
        return names.filter { LocaleTag($0)?.description == $0 }.map { "cards/\($0)" }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// Whether `file` is a plain name inside `cards/` or inside a locale's folder in it
    /// (`cards/<locale>/`, a language tag in canonical case), the only places cardbake writes card files.
    static func isCardFile(_ file: String) -> Bool {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "cards", let name = parts.last, !name.isEmpty, !name.hasPrefix(".") else { return false }
        switch parts.count {
        case 2: return true
        case 3: return LocaleTag(String(parts[1]))?.description == String(parts[1])
        default: return false
        }
    }
}

/// A manifest file's outline (``CardManifest/Outline``) read at most once, when first asked for: the
/// build holds the folder's lock, so it does not change until the build replaces it.
final class ManifestInPlace: Sendable {
    let url: URL
    private let loaded = Mutex<CardManifest.Outline??>(nil)

    init(url: URL) {
        self.url = url
    }

    /// The manifest's outline, or nil when there is none or it is not one of this schema.
    var outline: CardManifest.Outline? {
        loaded.withLock { loaded in
            if let outline = loaded { return outline }
            let outline = CardManifest.Outline.read(from: url, digest: ContentDigest.sha256OfData)
            loaded = .some(outline)
            return outline
        }
    }
}
