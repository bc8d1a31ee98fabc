import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// Brings the output folder in line with a finished build: copies each card's bitmaps out of the
/// content-addressed store (skipping files already up to date), removes files of cards that left
/// the catalog, and replaces the manifest atomically.
struct OutputWriter: Sendable {
    let directory: URL
    let store: any ArtifactStoring
    let statCache: StatCache
    /// Noted before the folder's first change, so that a build killed part-way is cleaned up after.
    let journal: WriteJournal
    private var records: RecordCache { RecordCache(store: store) }

    var manifestURL: URL { directory.appendingPathComponent(CardManifest.fileName) }

    /// Relative path of a card's bitmap at one scale.
    static func file(for card: Card, scale: Int) -> String {
        "cards/\(card.id)@\(scale)x.\(card.style.output.kind.fileExtension)"
    }

    /// Relative paths of a card's bitmaps, in the order of its style's scales.
    static func files(for card: Card) -> [String] {
        card.style.scales.map { file(for: card, scale: $0) }
    }

    /// Writes one card's files and returns its manifest entry.
    func write(_ plan: CardPlan, images: [Int: RenderedImageRecord]) throws -> CardManifest.Entry {
        let card = plan.card
        let folder = directory.fileSystemPath
        var entries: [String: CardManifest.Image] = [:]
        for scale in card.style.scales {
            guard let record = images[scale] else {
                throw OutputError.missingImage(cardID: card.id, scale: scale)
            }
            let file = Self.file(for: card, scale: scale)
            guard try materialize(record.blob, atPath: folder + "/" + file) else {
                throw OutputError.missingBlob(scale: scale)
            }
            entries[CardManifest.scaleName(scale)] = CardManifest.Image(file: file, width: record.width, height: record.height,
                                                                bytes: record.bytes, sha256: record.blob)
        }
        // Every scale's record holds the card's facts; the largest scale's decode is the reference.
        guard let facts = card.style.scales.max().flatMap({ images[$0]?.card }) else {
            throw OutputError.missingImage(cardID: card.id, scale: card.style.scales.first ?? 1)
        }
        return CardManifest.Entry(id: card.id, title: card.title, description: card.description,
                              size: CardManifest.Size(width: facts.width, height: facts.height), key: plan.key,
                              placeholder: CardManifest.Placeholder(color: facts.placeholder),
                              images: entries, inputs: plan.inputs)
    }

    /// Makes `manifest` the output folder's manifest, replacing the file atomically, and removes the
    /// files the previous manifest named that this one does not (only files cardbake wrote).
    /// Returns what it removed and the digest of the manifest file. When the file in place already
    /// is this manifest (its content key names the file's digest in the action cache), nothing is
    /// encoded, read or written.
    func replaceManifest(with manifest: CardManifest) throws -> (removed: [String], digest: ContentDigest) {
        let key = manifest.contentKey
        let inPlace = try? statCache.digest(ofFileAt: manifestURL)
        if let written = records.record(ContentDigest.self, for: key), inPlace == written {
            return ([], written)
        }
        let previous = CardManifest.read(from: manifestURL)
        let data = try manifest.encoded()
        let digest = ContentDigest.sha256(data)
        if inPlace != digest {
            try journal.begin()
            try AtomicFileWriter.write(data, to: manifestURL)
            try statCache.record(digest, forFileAt: manifestURL)
        }
        try records.save(digest, for: key)
        guard let previous else { return ([], digest) }
        return (Self.remove(previous.files.subtracting(manifest.files), in: directory), digest)
    }

    /// Removes `files` (paths relative to `directory`) that are plain names inside `cards/`; a
    /// manifest read from disk could name anything. Returns what it removed, sorted.
    static func remove(_ files: Set<String>, in directory: URL) -> [String] {
        let removable = files.filter(isCardFile).sorted()
        for file in removable {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        return removable
    }

    /// Puts the blob's bytes at `path` (absolute, normalised) unless they are there already; false
    /// when the store no longer holds the blob intact.
    private func materialize(_ blob: ContentDigest, atPath path: String) throws -> Bool {
        if (try? statCache.digest(ofFileAtPath: path)) == blob { return true }
        guard let data = store.blob(blob) else { return false }
        try journal.begin()
        try AtomicFileWriter.write(data, to: URL(fileURLWithPath: path))
        try statCache.record(blob, forFileAtPath: path)
        return true
    }

    private static func isCardFile(_ file: String) -> Bool {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0] == "cards" && !parts[1].isEmpty && !parts[1].hasPrefix(".")
    }
}

/// The output folder could not be brought up to date.
enum OutputError: Error, Sendable, CustomStringConvertible {
    case missingImage(cardID: String, scale: Int)
    /// The store no longer holds a cached bitmap intact; the card's scale must be rendered again.
    case missingBlob(scale: Int)

    var description: String {
        switch self {
        case let .missingImage(cardID, scale):
            "card \"\(cardID)\" has no \(scale)x image after rendering"
        case let .missingBlob(scale):
            "the cache lost the \(scale)x bitmap before it was copied to the output; run the build again"
        }
    }
}
