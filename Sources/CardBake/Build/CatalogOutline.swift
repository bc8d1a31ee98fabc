import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// What deciding that a catalog is built as a whole (``WholeBuild``) needs of it: each card's ID and
/// scales and its bitmaps' file extension, and the images and fonts the cards use.
///
/// A build that records a whole build also keeps its catalog's outline in the cache folder
/// (``Saved``), under the catalog's path and bytes and the request's settings, so that the next
/// build or `check` of the same bytes, found up to date, never parses the catalog: as ccache's direct
/// mode answers from a file's digest without preprocessing it. A catalog that gives photos as URLs
/// keeps its outline until the first of them is due for revalidation (`maxAge`), so that a no-op
/// within it makes no request and parses nothing either.
struct CatalogOutline: Sendable, Equatable {
    struct Card: Sendable, Equatable {
        let id: String
        /// Its position in the whole catalog's `cards` (a shard has some of them).
        let index: Int
        let scales: [Int]
        let fileExtension: String
    }

    /// In catalog order.
    let cards: [Card]
    /// Each distinct image file's path, sorted.
    let imagePaths: [String]
    /// Each distinct font request, sorted.
    let fontRequests: [FontRequest]
    /// The catalog's translated locales, in which every card has bitmaps too.
    var translatedLocales: [LocaleTag] = []
    /// The positions in ``cards`` of the cards whose photo is a URL, as runs.
    var photoURLCards: [Range<Int>] = []

    /// `card`'s bitmaps' files in the output folder: in the order of its scales, in the source locale
    /// then in each translated one.
    func files(of card: Card) -> [String] {
        ([nil] + translatedLocales).flatMap { locale in
            card.scales.map { OutputFolder.file(id: card.id, scale: $0, fileExtension: card.fileExtension, locale: locale) }
        }
    }

    /// A catalog's outline and the digest of the catalog file's bytes it was made from (nil for a
    /// catalog not read from a file, which is never built as a whole).
    struct Source: Sendable {
        let outline: CatalogOutline
        let digest: ContentDigest?
    }

    /// The report line of each card, all cached.
    var cachedResults: [BuildReport.CardResult] {
        cards.map { .cached(id: $0.id, index: $0.index, scales: $0.scales) }
    }

    /// The report's photos when every photo given as a URL came from the cache with no request; nil
    /// when the catalog gives none.
    var cachedPhotos: PhotoTraffic? {
        guard !photoURLCards.isEmpty else { return nil }
        let uses = photoURLCards.joined().map { PhotoTraffic.Use(id: cards[$0].id, index: cards[$0].index, source: .cached) }
        return PhotoTraffic(cards: uses, downloadedBytes: 0, requests: 0)
    }

    /// The key an outline is kept under: the catalog file's path and the digest of its bytes, and
    /// the settings of a build without shard or asset catalog (the only builds that keep one).
    static func key(catalog: URL, digest: ContentDigest, settings: ContentDigest) -> ContentDigest {
        var key = Fingerprint(domain: "catalog-outline")
        key.add("catalog", catalog.fileSystemPath)
        key.add("catalogBytes", digest)
        key.add("settings", settings)
        return key.digest
    }

    /// Whether a build of `request` keeps and uses an outline: a shard's build records the whole
    /// catalog's card IDs, and one with an asset catalog reads the manifest whole anyway.
    static func isKept(for request: BuildRequest) -> Bool {
        request.cache != nil && request.shard == nil && request.xcassets == nil
    }
}

extension CatalogOutline {
    /// The outline file in a cache folder, as read: the outline and the key it was kept under.
    ///
    /// The file, all integers big-endian, strings as a UInt32 length and UTF-8:
    ///
    ///     "cardbake-catalog-outline 6\n"
    ///     32-byte key (``CatalogOutline/key(catalog:digest:settings:)``)
    ///     Int64 size, Int64 modification time, UInt64 inode, Int64 change time: the catalog file's status
    ///     Int64 seconds since 1970 from which the outline is not used, as a photo given as a URL is due
    ///         for revalidation (0: never)
    ///     UInt32 image count, each image's path
    ///     UInt32 font count, each font request: UInt8 kind (0 a family, 1 a file), the family or the
    ///         path (as ``FontRequest/description`` has it, so that the whole-build key is the same),
    ///         UInt16 weight (0 when none is asked), UInt8 italic (0 or 1)
    ///     UInt32 translated locale count, each locale's tag
    ///     UInt32 run count, each run of cards whose photo is a URL: UInt32 first position, UInt32 count
    ///     UInt32 kind count, each kind of card: its bitmaps' extension, UInt8 scale count, a UInt8 per scale
    ///     UInt32 run count, each run of cards of one kind: UInt16 kind, UInt32 card count
    ///     UInt32 card count, each card's ID as UInt8 bytes shared with the previous card's ID, UInt8
    ///         count of the rest, the rest (an ID is at most 100 ASCII bytes): a few bytes a card for
    ///         IDs that count up, so that the whole file a build rewrites after an edit stays small
    ///     32-byte SHA-256 of everything before it
    ///
    /// A card's index is its position: only a build of the whole catalog keeps an outline. A file that
    /// does not start with this exact header, fails its checksum or is past its time, is ignored.
    struct Saved: Sendable {
        let key: ContentDigest
        let outline: CatalogOutline

        static let fileName = "catalog-outline"
        private static let header = Array("cardbake-catalog-outline 6\n".utf8)

        /// The outline kept in `cache` while the file at `catalog` had the status it has now; nil when
        /// there is none, the status differs, its photos are due for revalidation at `now`, or the file
        /// is damaged or of another version. The status is compared before anything else is read: a
        /// catalog that changed is parsed at once. One that did not most likely has the bytes the
        /// outline was kept for; the stat cache decides (``source(for:statCache:)``).
        init?(in cache: URL, describing catalog: URL, now: Date = Date()) {
            guard let file = try? ReadableFile(path: cache.appendingPathComponent(Self.fileName).fileSystemPath).readToEnd(),
                  let status = try? FileStatus(path: catalog.fileSystemPath),
                  let saved = Self.decode(file, describing: status, now: now)
            else { return nil }
            self = saved
        }

        private init(key: ContentDigest, outline: CatalogOutline) {
            self.key = key
            self.outline = outline
        }

        /// The outline a build of `request` may use, if one is kept in its cache folder for the catalog
        /// file as it is (``init(in:describing:)``); none with `--refresh`, which revalidates every
        /// photo the catalog gives as a URL.
        static func kept(for request: BuildRequest) -> Saved? {
            guard isKept(for: request), request.photos.mode != .refresh, let cache = request.cache else { return nil }
            return Saved(in: cache, describing: request.catalog)
        }

        /// This outline as the source of a build of `request`, when the stat cache finds the catalog
        /// file's bytes to be those it was kept for (and their digest in the catalog's entry); nil when not.
        func source(for request: BuildRequest, statCache: StatCache) -> Source? {
            guard let digest = try? statCache.digest(ofFileAt: request.catalog),
                  key == CatalogOutline.key(catalog: request.catalog, digest: digest, settings: request.settingsDigest)
            else { return nil }
            return Source(outline: outline, digest: digest)
        }

        /// Keeps `outline` in `cache` under `key`, with the catalog file's status now, to be used
        /// until `until` (nil: while the file is unchanged); a catalog that cannot be examined keeps
        /// none (a failure to write only costs the next build a parse).
        static func keep(_ outline: CatalogOutline, key: ContentDigest, catalog: URL, in cache: URL, until: Date?) {
            let runs = KindRuns(outline.cards)
            guard outline.cards.indices.elementsEqual(outline.cards.map(\.index)), runs.fit(outline.cards),
                  outline.cards.count <= Int(UInt32.max),
                  let status = try? FileStatus(path: catalog.fileSystemPath) else { return }
            var bytes = header + key.bytes
            bytes.appendFileStatus(status)
            bytes.appendBigEndian(Int64(until.map { max(1, $0.timeIntervalSince1970.rounded(.down)) } ?? 0))
            bytes.appendBigEndian(UInt32(outline.imagePaths.count))
            for path in outline.imagePaths {
                bytes.appendText(path)
            }
            bytes.appendBigEndian(UInt32(outline.fontRequests.count))
            for request in outline.fontRequests {
                switch request.source {
                case .family(let name):
                    bytes.append(0)
                    bytes.appendText(name)
                case .file(let url):
                    bytes.append(1)
                    bytes.appendText(url.path)
                }
                bytes.appendBigEndian(UInt16(request.weight ?? 0))
                bytes.append(request.italic ? 1 : 0)
            }
            bytes.appendBigEndian(UInt32(outline.translatedLocales.count))
            for locale in outline.translatedLocales {
                bytes.appendText(locale.description)
            }
            bytes.appendBigEndian(UInt32(outline.photoURLCards.count))
            for run in outline.photoURLCards {
                bytes.appendBigEndian(UInt32(run.lowerBound))
                bytes.appendBigEndian(UInt32(run.count))
            }
            bytes.appendBigEndian(UInt32(runs.kinds.count))
            for kind in runs.kinds {
                bytes.appendText(kind.fileExtension)
                bytes.append(UInt8(kind.scales.count))
                bytes.append(contentsOf: kind.scales.map(UInt8.init))
            }
            bytes.appendBigEndian(UInt32(runs.runs.count))
            for run in runs.runs {
                bytes.appendBigEndian(UInt16(run.kind))
                bytes.appendBigEndian(UInt32(run.count))
            }
            bytes.appendBigEndian(UInt32(outline.cards.count))
            var previous: [UInt8] = []
            for card in outline.cards {
                let id = Array(card.id.utf8)
                let shared = zip(id, previous).prefix { $0 == $1 }.count
                bytes.append(UInt8(shared))
                bytes.append(UInt8(id.count - shared))
                bytes.append(contentsOf: id[shared...])
                previous = id
            }
            try? DigestingFile.writeChecksummed(to: cache.appendingPathComponent(fileName)) { sink in
                try sink(Data(bytes))
            }
        }

        /// The outline in `file` when it was kept for a catalog with `status` and is not past its time
        /// at `now`; those are compared before the checksum is verified or anything else decoded.
        private static func decode(_ file: Data, describing status: FileStatus, now: Date) -> Saved? {
            file.withUnsafeBytes { bytes in
                var reader = BinaryReader(bytes: bytes, offset: 0)
                guard reader.bytes(header.count)?.elementsEqual(header) == true,
                      let key = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                      reader.fileStatus() == status, let until = reader.integer(Int64.self),
                      until == 0 || now.timeIntervalSince1970 < Double(until), file.removingChecksum() != nil,
                      let imagePaths = reader.list({ $0.text() }),
                      let fontRequests = reader.list({ reader -> FontRequest? in
                          let source: FontRequest.Source? = switch reader.integer(UInt8.self) {
                          case 0?: reader.text().map(FontRequest.Source.family)
                          case 1?: reader.text().map { .file(URL(fileURLWithPath: $0, isDirectory: false)) }
                          default: nil
                          }
                          guard let source, let weight = reader.integer(UInt16.self),
                                let italic = reader.integer(UInt8.self), italic <= 1 else { return nil }
                          return FontRequest(source, weight: weight == 0 ? nil : Int(weight), italic: italic == 1)
                      }),
                      let translatedLocales = reader.list({ $0.text().flatMap(LocaleTag.init) }),
                      let photoURLCards = reader.list({ reader -> Range<Int>? in
                          guard let first = reader.integer(UInt32.self), let count = reader.integer(UInt32.self) else { return nil }
                          return Int(first)..<Int(first) + Int(count)
                      }),
                      let kinds = reader.list({ reader -> Kind? in
                          guard let fileExtension = reader.text(), let count = reader.integer(UInt8.self),
                                let scales = reader.bytes(Int(count)) else { return nil }
                          return Kind(fileExtension: fileExtension, scales: scales.map(Int.init))
                      }),
                      let runs = reader.list({ reader -> (kind: Kind, count: Int)? in
                          guard let kind = reader.integer(UInt16.self), Int(kind) < kinds.count,
                                let count = reader.integer(UInt32.self) else { return nil }
                          return (kinds[Int(kind)], Int(count))
                      }),
                      let ids = Self.ids(&reader), ids.count == runs.reduce(0, { $0 + $1.count }),
                      photoURLCards.allSatisfy({ $0.upperBound <= ids.count }), reader.remaining == 32
                else { return nil }
                let kindOfEach = runs.flatMap { repeatElement($0.kind, count: $0.count) }
                let cards = zip(ids, kindOfEach).enumerated().map { index, card in
                    Card(id: card.0, index: index, scales: card.1.scales, fileExtension: card.1.fileExtension)
                }
                return Saved(key: key, outline: CatalogOutline(cards: cards, imagePaths: imagePaths, fontRequests: fontRequests,
                                                               translatedLocales: translatedLocales, photoURLCards: photoURLCards))
            }
        }

        /// The cards' IDs, each written as the bytes it shares with the one before and the rest.
        private static func ids(_ reader: inout BinaryReader) -> [String]? {
            var previous: [UInt8] = []
            return reader.list { reader -> String? in
                guard let shared = reader.integer(UInt8.self), Int(shared) <= previous.count,
                      let restCount = reader.integer(UInt8.self), let rest = reader.bytes(Int(restCount)) else { return nil }
                previous = Array(previous[..<Int(shared)]) + rest
                return String(decoding: previous, as: UTF8.self)
            }
        }
    }

    /// What cards share: their bitmaps' extension and scales.
    struct Kind: Hashable {
        let fileExtension: String
        let scales: [Int]
    }

    /// The kinds of a catalog's cards, and the runs of cards of one kind in catalog order.
    struct KindRuns {
        private(set) var kinds: [Kind] = []
        private(set) var runs: [(kind: Int, count: Int)] = []

        init(_ cards: [Card]) {
            var numbers: [Kind: Int] = [:]
            for card in cards {
                let kind = Kind(fileExtension: card.fileExtension, scales: card.scales)
                let number = numbers[kind] ?? {
                    kinds.append(kind)
                    numbers[kind] = kinds.count - 1
                    return kinds.count - 1
                }()
                if runs.last?.kind == number { runs[runs.count - 1].count += 1 } else { runs.append((number, 1)) }
            }
        }

        /// Whether the file's fields hold these kinds and `cards`' IDs: at most 65,536 kinds, scales
        /// of 1 to 255 and at most 255 of them, IDs of at most 255 bytes (the catalog allows 100).
        func fit(_ cards: [Card]) -> Bool {
            kinds.count <= 65_536 && kinds.allSatisfy { $0.scales.count <= 255 && $0.scales.allSatisfy((1...255).contains) }
                && cards.allSatisfy { $0.id.utf8.count <= 255 }
        }
    }
}

extension CatalogOutline {
    /// The outline of `catalog`'s cards.
    init(_ catalog: Catalog) {
        let cards = catalog.cards.map {
            Card(id: $0.id, index: $0.index, scales: $0.style.scales, fileExtension: $0.style.output.kind.fileExtension)
        }
        // Each distinct path made normal once: catalogs repeat their images.
        let imagePaths = Set(Set(catalog.cards.map(\.imagePath)).map(NormalPath.inCurrentDirectory)).sorted()
        let fontRequests = Set(catalog.cards.flatMap { card in
            ([card.style] + card.localizations.map(\.style)).flatMap { [$0.title.fontRequest, $0.description.fontRequest] }
        })
        var photoURLCards: [Range<Int>] = []
        for (position, card) in catalog.cards.enumerated() where card.imageURL != nil {
            if photoURLCards.last?.upperBound == position {
                photoURLCards[photoURLCards.count - 1] = photoURLCards[photoURLCards.count - 1].lowerBound..<position + 1
            } else {
                photoURLCards.append(position..<position + 1)
            }
        }
        self.init(cards: cards, imagePaths: imagePaths, fontRequests: fontRequests.sorted(),
                  translatedLocales: catalog.locales?.translated ?? [], photoURLCards: photoURLCards)
    }
}

extension CatalogOutline.Source {
    /// The outline of `catalog`, from a file whose bytes have `digest` (a shard's cards come from the
    /// whole catalog's file).
    init(_ catalog: Catalog, digest: ContentDigest?) {
        self.init(outline: CatalogOutline(catalog), digest: digest)
    }
}

/// How a build or `check` comes by its catalog: parsed before the cache is held, so that one that
/// does not validate is refused at once; unless the last whole build kept its outline and the file's
/// status is unchanged. Then it is parsed only when the stat cache finds its bytes changed, or when
/// the command needs more than the outline.
struct CatalogReading<Parsed> {
    private let request: BuildRequest
    private let saved: CatalogOutline.Saved?
    private let parse: () throws -> Parsed
    private let outline: (Parsed) -> CatalogOutline.Source
    /// The catalog, once parsed.
    private(set) var parsed: Parsed?

    /// Parses the catalog of `request` with `parse` now, unless an outline is kept for it; `outline`
    /// makes the outline of a parsed one. Throws what `parse` throws.
    init(request: BuildRequest, parse: @escaping () throws -> Parsed,
         outline: @escaping (Parsed) -> CatalogOutline.Source) throws {
        self.request = request
        saved = CatalogOutline.Saved.kept(for: request)
        self.parse = parse
        self.outline = outline
        parsed = saved == nil ? try parse() : nil
    }

    /// Parses the catalog now unless the kept outline stands for the file's bytes as the stat cache
    /// finds them; throws what `parse` throws. Call holding the cache.
    mutating func parseUnlessKept(statCache: StatCache) throws {
        if parsed == nil, saved?.source(for: request, statCache: statCache) == nil {
            _ = try catalog()
        }
    }

    /// The catalog's outline, from the kept one when the stat cache finds the file's bytes unchanged,
    /// or else from the catalog parsed. Call holding the cache.
    mutating func source(statCache: StatCache) throws -> CatalogOutline.Source {
        if parsed == nil, let kept = saved?.source(for: request, statCache: statCache) {
            return kept
        }
        return outline(try catalog())
    }

    /// Puts `catalog` in place of the one parsed (its photos fetched).
    mutating func replaceParsed(with catalog: Parsed) {
        parsed = catalog
    }

    /// The catalog parsed, now if it was not before.
    mutating func catalog() throws -> Parsed {
        if let parsed { return parsed }
        let made = try parse()
        parsed = made
        return made
    }
}
