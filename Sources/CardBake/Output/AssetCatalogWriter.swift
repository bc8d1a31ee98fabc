import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc

/// Brings an asset catalog (``AssetCatalog``) in line with the output folder after a build, by the
/// output folder's rules: files written atomically and only when their bytes change, images hard-linked
/// to the output folder's (copied when it is on another file system), the files of removed cards
/// deleted, and the whole covered by the catalog's own ``WriteJournal``.
struct AssetCatalogWriter: Sendable {
    /// The catalog folder; its files looked up through the build's stat cache.
    let folder: OutputFolder
    let journal: WriteJournal
    /// The files cardbake wrote there before this build (its ledger).
    let ledger: Set<String>
    /// Whether the top `Contents.json` is cardbake's: listed in the ledger, or not there yet.
    let ownsTopContents: Bool

    /// Cleans up after a build killed while writing the catalog, then reads its ledger. Throws
    /// ``AssetCatalogError/foreignImageSet(path:card:)`` when a card would replace an image set cardbake
    /// did not write. Call with the catalog folder locked, before rendering.
    init(directory: URL, statCache: StatCache, cards: [Card]) throws {
        let folder = OutputFolder(directory: directory, statCache: statCache)
        let ledgerURL = directory.appendingPathComponent(AssetCatalog.ledgerName)
        let readLedger: @Sendable () -> Set<String> = { Self.readLedger(at: ledgerURL) }
        journal = WriteJournal(folder: directory, areas: nil) { unfinished in
            Self.remove(unfinished.subtracting(readLedger()), in: directory)
        } listing: {
            // Asked before the build's first change, so the folder is still as it was found.
            let ledger = readLedger()
            return ledger.union(Self.ownsTopContents(of: folder, ledger: ledger) ? [AssetCatalog.contentsName] : [])
                .union(cards.flatMap(AssetCatalog.paths(for:)))
        }
        ledger = readLedger()
        ownsTopContents = Self.ownsTopContents(of: folder, ledger: ledger)
        for card in cards {
            let contents = AssetCatalog.imageSet(card.id) + AssetCatalog.contentsName
            if !ledger.contains(contents) && access(folder.path(of: contents), F_OK) == 0 {
                throw AssetCatalogError.foreignImageSet(path: folder.path(of: String(AssetCatalog.imageSet(card.id).dropLast())),
                                                        card: card.id)
            }
        }
        self.folder = folder
    }

    /// Makes the catalog hold the cards of `entries`, whose files are in `output`, and nothing else of cardbake's.
    func write(_ entries: [CardManifest.Entry], from output: OutputFolder) async throws {
        let files = AssetCatalog.files(for: entries, withTopContents: ownsTopContents)
        for file in files {
            switch file.content {
            case .json(let data):
                try await folder.place(file.digest, as: file.path, journal: journal) { data }
            case let .image(outputFile, digest):
                let source = output.path(of: outputFile)
                if try await folder.place(digest, as: file.path, from: source, journal: journal) {
                    // Linking changed the source's ctime: record it again, so the next build need not read it back.
                    try output.statCache.record(digest, forFileAtPath: source)
                }
            }
        }
        let written = Set(files.map(\.path))
        if written != ledger {
            try journal.begin()
            Self.remove(ledger.subtracting(written), in: folder.directory)
            try AtomicFileWriter.write(Data(written.sorted().map { $0 + "\n" }.joined().utf8),
                                       to: folder.directory.appendingPathComponent(AssetCatalog.ledgerName))
        }
        journal.finish()
    }

    /// Whether the top `Contents.json` is cardbake's: listed in the ledger, or not there yet.
    static func ownsTopContents(of folder: OutputFolder, ledger: Set<String>) -> Bool {
        ledger.contains(AssetCatalog.contentsName) || access(folder.path(of: AssetCatalog.contentsName), F_OK) != 0
    }

    /// The catalog files that are missing or differ from what a build of `entries` writes, each with
    /// its card's id (nil for the top `Contents.json`) and what is wrong; reads only.
    static func differences(in directory: URL, for entries: [CardManifest.Entry],
                            statCache: StatCache) -> [(card: String?, problem: String)] {
        let folder = OutputFolder(directory: directory, statCache: statCache)
        let ledger = readLedger(at: directory.appendingPathComponent(AssetCatalog.ledgerName))
        var problems: [(card: String?, problem: String)] = []
        for entry in [nil] + entries.map(Optional.some) {
            let files = entry.map { AssetCatalog.files(for: [$0], withTopContents: false) }
                ?? AssetCatalog.files(for: [], withTopContents: ownsTopContents(of: folder, ledger: ledger))
            for file in files where !folder.holds(file.digest, as: file.path) {
                let state = access(folder.path(of: file.path), F_OK) == 0 ? "differs from what a build writes" : "is missing"
                problems.append((entry?.id, "\(folder.path(of: file.path)) \(state)"))
            }
        }
        return problems
    }

    /// The files a catalog's ledger lists; none when it has no ledger.
    static func readLedger(at url: URL) -> Set<String> {
        guard let text = try? ReadableFile(path: url.fileSystemPath).readToEnd() else { return [] }
        return Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// Removes `files` that have the shape of cardbake's, then their image sets when that leaves them empty.
    static func remove(_ files: Set<String>, in directory: URL) {
        let removable = files.filter(AssetCatalog.isOwnShape)
        for file in removable {
            unlink(directory.appendingPathComponent(file).fileSystemPath)
        }
        for imageSet in Set(removable.compactMap { $0.split(separator: "/").dropLast().first }) {
            rmdir(directory.appendingPathComponent(String(imageSet)).fileSystemPath)
        }
    }
}
