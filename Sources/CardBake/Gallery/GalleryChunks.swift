import CardBakeCache
import CardBakeManifest
import Foundation

/// One chunk file: a script that hands its cards' records, in order, to `cardbakeGallery.chunk`, a
/// function the page defines (JSONP: a page opened from `file://` may load scripts, not fetch
/// files). Named by the SHA-256 of its bytes, so a chunk is never rewritten in place: a page open
/// during a rebuild finds either its own chunks or none.
struct GalleryChunk: Sendable {
    /// The chunks' folder, beside `index.html`.
    static let folder = "gallery"
    /// How every chunk file begins: how cardbake knows one it wrote.
    static let opening = "cardbakeGallery.chunk([\n"

    let bytes: Data
    let digest: ContentDigest
    let count: Int

    /// The records of `count` cards, each a JSON array, one a line.
    init(records: Data, count: Int) {
        bytes = Data(Self.opening.utf8) + records + Data("\n]);\n".utf8)
        digest = ContentDigest.sha256(bytes)
        self.count = count
    }

    /// Relative to the output folder.
    var file: String { Self.file(named: digest) }

    static func file(named digest: ContentDigest) -> String { "\(folder)/\(digest).js" }

    /// The digest a chunk's file name states, or nil for a name that is not a chunk's.
    static func digest(ofFileNamed name: String) -> ContentDigest? {
        guard name.hasSuffix(".js") else { return nil }
        return ContentDigest(hex: String(name.dropLast(3)))
    }

    /// A chunk as the page lists it: the digest naming its file, and how many cards it holds.
    struct Reference: Sendable, Equatable {
        let digest: ContentDigest
        let count: Int
    }
}

/// Cuts a gallery's records into chunks by a ``PageBoundary`` (the manifest's rule: by the cards'
/// ids, so an edit rewrites one chunk), handing each chunk on as soon as it is complete, so that no
/// more than one chunk is held.
struct GalleryChunker {
    /// The chunks of the cards' placeholders and files: about 256 cards, some 150 KB.
    static let cards = PageBoundary(averageCount: 256, maximumCount: 1024)
    /// The chunks of the cards' ids and titles, for captions and the search box: about 2,048 cards.
    static let titles = PageBoundary(averageCount: 2048, maximumCount: 8192)

    let rule: PageBoundary
    private var records = Data()
    private var count = 0
    /// The chunks handed on so far, in order.
    private(set) var chunks: [GalleryChunk.Reference] = []

    init(rule: PageBoundary) {
        self.rule = rule
    }

    /// Adds the next card's `record`; hands `emit` the chunk it completes, if it starts one.
    mutating func add(_ record: Data, key: UInt64, emit: (GalleryChunk) throws -> Void) throws {
        if rule.starts(key: key, after: count) {
            try cut(emit)
        }
        if count > 0 {
            records.append(contentsOf: ",\n".utf8)
        }
        records.append(record)
        count += 1
    }

    /// Hands `emit` the last chunk, if any card is left.
    mutating func finish(_ emit: (GalleryChunk) throws -> Void) throws {
        if count > 0 {
            try cut(emit)
        }
    }

    private mutating func cut(_ emit: (GalleryChunk) throws -> Void) throws {
        let chunk = GalleryChunk(records: records, count: count)
        chunks.append(GalleryChunk.Reference(digest: chunk.digest, count: chunk.count))
        records.removeAll(keepingCapacity: true)
        count = 0
        try emit(chunk)
    }
}

/// The cards' sizes as the page states them, a few bytes per card whatever the catalog: each
/// distinct size once (`[width, height]`, most used first), and the cards in order as runs of one
/// size, each run as base64 VLQ digits (5 bits a digit, least significant first, 32 meaning more
/// digits follow; alphabet `A–Z a–z 0–9 - _`): `index × 2 + 1` then `count − 2` for a run of two
/// or more cards, `index × 2` for a single card. A card of one of the 16 most used sizes between
/// cards of other sizes costs one byte; a run of equal cards, two or three bytes.
struct GallerySizes: Sendable {
    /// The runs in order: the size as the page writes it (`[320,514]`) and how many cards in a row have it.
    private var runs: [(size: String, count: Int)] = []

    /// Adds the next card's size, `width height` as ``GalleryLine/size`` states it.
    mutating func add(_ widthAndHeight: Substring) {
        let size = "[" + widthAndHeight.replacingOccurrences(of: " ", with: ",") + "]"
        if let last = runs.last, last.size == size {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((size, 1))
        }
    }

    /// Each distinct size once, the most used first (a tie in order of first use).
    var table: [String] {
        var uses: [String: (cards: Int, first: Int)] = [:]
        for (index, run) in runs.enumerated() {
            uses[run.size, default: (0, index)].cards += run.count
        }
        return uses.sorted { ($0.value.cards, -$0.value.first) > ($1.value.cards, -$1.value.first) }.map(\.key)
    }

    /// The runs as base64 VLQ digits, by their sizes' places in `table`.
    func encodedRuns(table: [String]) -> String {
        let place = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($1, $0) })
        var digits: [UInt8] = []
        for run in runs {
            let index = place[run.size]!   // the table holds every size of the runs
            Self.appendVLQ(index * 2 + (run.count > 1 ? 1 : 0), to: &digits)
            if run.count > 1 {
                Self.appendVLQ(run.count - 2, to: &digits)
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func appendVLQ(_ value: Int, to digits: inout [UInt8]) {
        var rest = value
        repeat {
            let low = rest & 31
            rest >>= 5
            digits.append(alphabet[low | (rest > 0 ? 32 : 0)])
        } while rest > 0
    }
}
