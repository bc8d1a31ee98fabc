import CardBakeCache
import CardBakeManifest
import Foundation

/// The preview gallery of an output folder, all derived from the manifest alone, so the same
/// manifest gives the same bytes: `index.html` (``GalleryPage``), `index-version.js`, and the chunk
/// files in `gallery/` (``GalleryChunk``) that hold the cards' placeholders, files, ids and titles.
struct Gallery: Sendable {
    static let pageName = "index.html"
    static let versionName = "index-version.js"
    /// The gallery of one sample card, page and chunks: its digest changes with the page's markup,
    /// style or script and with the chunks' form, so that a new template writes galleries again.
    static let templateDigest: ContentDigest = {
        let sample = Gallery(cards: GalleryCards([
            GalleryCard(id: "sample", title: "Sample", width: 320, height: 480, color: "#808080",
                        thumbhash: "AAAAAAAA", dataURL: "data:,", images: [(1, "cards/sample@1x.png")]),
        ]), generator: "cardbake", version: ContentDigest.sha256(Data()))
        var bytes = Data()
        let page = try! sample.make { bytes.append($0.bytes) }   // An array's cards never throw.
        return ContentDigest.sha256(bytes + page.html)
    }()

    let cards: GalleryCards
    /// The manifest's `generator`, shown in the page's summary.
    let generator: String
    /// Names this gallery in `index-version.js`, and keys the page's digest in the action cache.
    let version: ContentDigest

    /// The gallery of `manifest`, whose bytes have the SHA-256 `digest`.
    init(of manifest: CardManifest, digest: ContentDigest) {
        self.init(cards: GalleryCards(entries: manifest.cards), generator: manifest.generator, manifestDigest: digest)
    }

    /// The gallery of the manifest of `generator` with `cards`, whose bytes have the SHA-256 `manifestDigest`.
    init(cards: GalleryCards, generator: String, manifestDigest: ContentDigest) {
        self.init(cards: cards, generator: generator, version: Self.version(ofManifest: manifestDigest))
    }

    private init(cards: GalleryCards, generator: String, version: ContentDigest) {
        self.cards = cards
        self.generator = generator
        self.version = version
    }

    /// Makes the gallery in one pass over the cards: hands `chunk` each chunk as it is cut (a few
    /// hundred KB at a time, never the whole gallery) and returns the page that names them all.
    /// Throws what handing out the cards or `chunk` throws.
    func make(chunk: (GalleryChunk) throws -> Void) throws -> GalleryPage {
        var sizes = GallerySizes()
        var cardChunks = GalleryChunker(rule: GalleryChunker.cards), titleChunks = GalleryChunker(rule: GalleryChunker.titles)
        try cards.forEach { bytes in
            guard let line = GalleryLine(bytes) else { preconditionFailure("a gallery card's line is GalleryCard.line") }
            sizes.add(line.size)
            try cardChunks.add(line.cardRecord, key: line.chunkKey, emit: chunk)
            try titleChunks.add(line.titleRecord, key: line.chunkKey, emit: chunk)
        }
        try cardChunks.finish(chunk)
        try titleChunks.finish(chunk)
        return GalleryPage(count: cards.count, scales: cards.scales, locales: cards.locales, generator: generator, version: version,
                           sizes: sizes, cardChunks: cardChunks.chunks, titleChunks: titleChunks.chunks)
    }

    /// `index-version.js` of this gallery.
    var versionScript: Data { Self.versionScript(version) }

    /// The version of the gallery of the manifest whose bytes have the SHA-256 `manifest`: that digest
    /// under this template, known without making the page.
    static func version(ofManifest manifest: ContentDigest) -> ContentDigest {
        var key = Fingerprint(domain: "gallery")
        key.add("template", templateDigest)
        key.add("manifest", manifest)
        return key.digest
    }

    /// `index-version.js`, which the page loads every second to learn whether it is out of date.
    static func versionScript(_ version: ContentDigest) -> Data {
        Data("window.cardbakeGalleryVersion = \"\(version)\";\n".utf8)
    }

    /// Each of this gallery's files that `folder` lacks or holds other bytes for, as `cardbake check`
    /// reports it: the chunks (by digest, through the folder's stat cache), the page and the version.
    func differences(in folder: OutputFolder) throws -> [Checker.Finding] {
        var expected: [(name: String, digest: ContentDigest)] = []
        let page = try make { expected.append(($0.file, $0.digest)) }
        expected += [(Self.pageName, ContentDigest.sha256(page.html)), (Self.versionName, ContentDigest.sha256(versionScript))]
        return expected.compactMap { name, digest in
            guard let found = try? folder.statCache.digest(ofFileAtPath: folder.path(of: name)) else {
                return Checker.Finding(cardID: name, kind: .missing, reason: "the preview gallery has no \(name)")
            }
            return found == digest ? nil
                : Checker.Finding(cardID: name, kind: .stale, reason: "the preview gallery does not show manifest.json")
        }
    }

    /// The gallery's files in `directory` as a whole build records them, relative to it: the page,
    /// the version, and the chunks the page in place names (none when there is no page of this layout).
    static func files(in directory: URL) -> [String] {
        let page = (try? Data(contentsOf: directory.appendingPathComponent(pageName))).flatMap(GalleryPage.chunkFiles(in:))
        return [pageName, versionName] + (page ?? [])
    }

    /// Whether the file at `url` is one cardbake wrote as part of a gallery: the version script, a
    /// page naming cardbake as its generator, or a chunk (a name that is a digest, and a chunk's
    /// opening). Only those are removed.
    static func isGalleryFile(at url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        if url.deletingLastPathComponent().lastPathComponent == GalleryChunk.folder,
           GalleryChunk.digest(ofFileNamed: url.lastPathComponent) != nil {
            return start.hasPrefix(GalleryChunk.opening)
        }
        return url.lastPathComponent == versionName
            ? start.hasPrefix("window.cardbakeGalleryVersion = ")
            : start.hasPrefix("<!DOCTYPE html>") && start.contains("<meta name=\"generator\" content=\"cardbake ")
    }

    /// Removes the gallery files cardbake wrote in `directory`, and nothing else; returns the names removed.
    @discardableResult
    static func remove(in directory: URL) -> [String] {
        let removed = [pageName, versionName].filter { name in
            let url = directory.appendingPathComponent(name)
            return isGalleryFile(at: url) && (try? FileManager.default.removeItem(at: url)) != nil
        }
        return removed + removeChunks(in: directory, keeping: [])
    }

    /// The chunk files cardbake wrote in `directory`'s chunk folder that `keeping` (relative paths) does not name.
    static func unwantedChunks(in directory: URL, keeping: Set<String>) -> [String] {
        OutputFolder.unnamed(in: GalleryChunk.folder, of: directory, keeping: keeping) {
            isGalleryFile(at: directory.appendingPathComponent($0))
        }
    }

    /// Removes ``unwantedChunks(in:keeping:)``, and the chunk folder if that leaves it empty; returns what it removed.
    @discardableResult
    static func removeChunks(in directory: URL, keeping: Set<String>) -> [String] {
        OutputFolder.removeUnnamed(in: GalleryChunk.folder, of: directory, keeping: keeping) {
            isGalleryFile(at: directory.appendingPathComponent($0))
        }
    }
}
