import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// `cardbake merge`: combines the output folders of the shards `1/N … N/N` of one catalog into one
/// output folder, with the manifest one build of the whole catalog writes (same bytes). Refuses,
/// before writing anything, a set of shards that is incomplete, has a shard twice, or was built
/// from different catalogs or settings. Writes like a build: holding the folder's lock, each file
/// atomically and only when its bytes change, under the folder's write journal; files of cards the
/// manifest in place named and the merged one does not are removed. Card files are hard-linked from
/// the shard folders where the file system allows (after their bytes are checked), else copied.
public struct ShardMerge: Sendable {
    public let output: URL
    public let shards: [URL]
    /// How long to wait for another cardbake using the output folder; nil waits as long as it takes.
    public let lockTimeout: Duration?

    public init(output: URL, shards: [URL], lockTimeout: Duration? = nil) {
        self.output = output
        self.shards = shards
        self.lockTimeout = lockTimeout
    }

    /// What a merge wrote.
    public struct Report: Sendable, Equatable {
        /// Cards in the merged manifest.
        public var cards: Int
        /// Files of cards no longer in the catalog, removed from the output folder.
        public var removed: [String]
    }

    /// Merges the shards. Throws ``ShardSetError`` for shards that do not make one whole catalog or
    /// whose files are damaged, ``LockTimeout``, ``BuildCancelled``, and the ``FileSystemError`` of a
    /// failed write.
    public func run(cancellation: Cancellation = Cancellation(),
                    waiting: (URL, LockHolder) -> Void = { _, _ in }) async throws -> Report {
        let parts = try shards.map(ShardPart.init(folder:))
        if let part = parts.first(where: { $0.folder.fileSystemPath == output.fileSystemPath }) {
            throw ShardSetError.outputIsShard(folder: part.name)
        }
        let entries = try ShardPart.wholeCatalog(of: parts)

        let lock = try WorkspaceLock(folders: [output], mode: .exclusive, creating: true, timeout: lockTimeout,
                                     cancellation: cancellation, waiting: waiting)
        defer { lock.release() }
        let folder = OutputFolder(directory: output, statCache: StatCache(loadingFrom: nil))
        let files = Set(entries.flatMap { $0.entry.card.imagesInEveryLocale.flatMap { $0.values.map(\.file) } })
        let writer = OutputWriter(folder: folder, records: RecordCache(store: InMemoryArtifactStore()),
                                  journal: .output(folder, writing: { files }))
        let manifest = CardManifest(generator: parts[0].manifest.generator, cards: entries.map(\.entry))
        let removed = try await writer.replacingFiles {
            for (entry, part) in entries {
                try cancellation.check()
                for image in entry.card.imagesInEveryLocale.flatMap(\.values) {
                    try await writer.place(image.sha256, as: image.file, from: try part.verifiedPath(of: image))
                }
            }
            let written = try writer.replaceManifest(with: manifest)
            _ = try await GalleryWriter(folder: folder, records: writer.records, journal: writer.journal)
                .update(cards: GalleryCards(entries: manifest.cards), generator: manifest.generator, digest: written.digest)
            return written.removed
        }
        writer.journal.finish()
        ShardRecord.remove(from: output)
        return Report(cards: manifest.cards.count, removed: removed)
    }
}

/// One shard's output folder as a merge reads it: its record and its manifest, checked to belong together.
private struct ShardPart {
    let folder: URL
    let record: ShardRecord
    let manifest: CardManifest
    let shard: Shard

    /// The folder as the user named it, for messages.
    var name: String { folder.relativePath }

    init(folder: URL) throws {
        self.folder = folder
        let name = folder.relativePath
        let recordURL = folder.appendingPathComponent(ShardRecord.fileName)
        let recordData: Data
        do {
            recordData = try Data(contentsOf: recordURL)
        } catch {
            throw ShardSetError.notAShard(folder: name, reason: "it has no \(ShardRecord.fileName); build it with --shard i/N")
        }
        guard let record = try? JSONDecoder().decode(ShardRecord.self, from: recordData), let shard = record.shard else {
            throw ShardSetError.notAShard(folder: name, reason: "\(recordURL.relativePath) is not a shard record")
        }
        let manifestURL = folder.appendingPathComponent(CardManifest.fileName)
        guard let manifestData = try? Data(contentsOf: manifestURL),
              ContentDigest.sha256(manifestData) == record.manifest else {
            throw ShardSetError.notAShard(folder: name, reason: "\(manifestURL.relativePath) is not the manifest its "
                                          + "\(ShardRecord.fileName) was written with (the shard's build did not finish); build it again")
        }
        do {
            manifest = try CardManifest(reading: ManifestReader(root: manifestData, source: manifestURL.relativePath,
                                                                digest: ContentDigest.sha256OfData) { file in
                try Data(contentsOf: folder.appendingPathComponent(file))
            })
        } catch {
            throw ShardSetError.notAShard(folder: name, reason: error.description)
        }
        self.record = record
        self.shard = shard
    }

    /// The absolute path of `image` in this folder, once its bytes are read and found to be those the
    /// manifest names; throws ``ShardSetError/damagedFile(folder:file:reason:)`` when they are not.
    func verifiedPath(of image: CardManifest.Image) throws -> String {
        guard OutputFolder.isCardFile(image.file) else {
            throw ShardSetError.damagedFile(folder: name, file: image.file, reason: "the manifest names a file outside cards/")
        }
        let path = folder.appendingPathComponent(image.file).fileSystemPath
        let digest: ContentDigest
        do {
            digest = try ContentDigest.sha256(of: ReadableFile(path: path))
        } catch {
            throw ShardSetError.damagedFile(folder: name, file: image.file, reason: "it cannot be read")
        }
        guard digest == image.sha256 else {
            throw ShardSetError.damagedFile(folder: name, file: image.file,
                                            reason: "its bytes are not those its manifest names")
        }
        return path
    }

    /// Every card of the shards with the shard it comes from, in catalog order, once the shards are
    /// known to be every shard of one catalog built with the same settings, each card in its own shard.
    static func wholeCatalog(of parts: [ShardPart]) throws -> [(entry: CardManifest.Entry, part: ShardPart)] {
        guard let first = parts.first else { return [] }
        let agreements: [(what: String, value: (ShardPart) -> String)] = [
            ("numbers of shards", { "\($0.shard.count)" }),
            ("catalogs", { "\($0.record.catalog) \($0.record.cards)" }),
            ("settings (overrides, cardbake or its libraries' versions)", { "\($0.record.settings)" }),
        ]
        for (what, value) in agreements {
            let groups = Dictionary(grouping: parts, by: value)
            if groups.count > 1 {
                throw ShardSetError.mismatched(what: what, groups: groups.values.map { $0.map(\.name) }.sorted { $0[0] < $1[0] })
            }
        }
        let byIndex = Dictionary(grouping: parts, by: \.shard.index)
        if let twice = byIndex.filter({ $0.value.count > 1 }).min(by: { $0.key < $1.key }) {
            throw ShardSetError.duplicate(shard: "\(twice.key)/\(first.shard.count)", folders: twice.value.map(\.name))
        }
        let missing = (1...first.shard.count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            throw ShardSetError.missing(shards: missing.map { "\($0)/\(first.shard.count)" })
        }
        let catalog = Set(first.record.cards)
        var found: [String: (entry: CardManifest.Entry, part: ShardPart)] = [:]
        for part in parts {
            for entry in part.manifest.cards {
                guard part.shard.contains(card: entry.id), catalog.contains(entry.id) else {
                    throw ShardSetError.misplaced(card: entry.id, folder: part.name, shard: part.shard.description)
                }
                found[entry.id] = (entry, part)
            }
        }
        return first.record.cards.compactMap { found[$0] }
    }
}

/// Why `cardbake merge` refused its shard folders; nothing was written.
public enum ShardSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder is not a finished shard build's.
    case notAShard(folder: String, reason: String)
    /// The output folder is also one of the shards.
    case outputIsShard(folder: String)
    /// The shards disagree on `what`; `groups` are the folders that agree with each other.
    case mismatched(what: String, groups: [[String]])
    /// Two folders hold the same shard.
    case duplicate(shard: String, folders: [String])
    /// No folder holds these shards.
    case missing(shards: [String])
    /// A shard's manifest holds a card of another shard.
    case misplaced(card: String, folder: String, shard: String)
    /// A card file in a shard folder is missing or not what its manifest says.
    case damagedFile(folder: String, file: String, reason: String)

    public var description: String {
        switch self {
        case let .notAShard(folder, reason):
            "\(folder) is not a shard's output folder: \(reason)."
        case let .outputIsShard(folder):
            "the output folder \(folder) is also one of the shards; merge into another folder."
        case let .mismatched(what, groups):
            "the shards were built with different \(what): "
                + groups.map { $0.joined(separator: ", ") }.joined(separator: " differ from ") + "."
        case let .duplicate(shard, folders):
            "shard \(shard) was given more than once: \(folders.joined(separator: ", "))."
        case let .missing(shards):
            "the shards are incomplete: \(shards.count.word("shard")) \(shards.joined(separator: ", ")) "
                + "\(shards.count.word("is", plural: "are")) missing."
        case let .misplaced(card, folder, shard):
            "\(folder): card \"\(card)\" does not belong to shard \(shard); the shards overlap."
        case let .damagedFile(folder, file, reason):
            "\(folder)/\(file): \(reason); build that shard again."
        }
    }
}
