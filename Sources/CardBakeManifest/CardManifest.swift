import Foundation

/// A build's manifest, whole: every card in catalog order with what an app shows and what the build
/// keeps of its inputs, of schema ``schemaVersion``. On disk it is paged (``ManifestPaging``): `manifest.json`, a small root an
/// app opens at once, and pages under `manifest/` that it reads as it needs them (``ManifestReader``).
/// This whole form is for tools, tests and small catalogs; nothing in it depends on time, so the same
/// inputs give the same files.
public struct CardManifest: Sendable, Equatable {
    public static let schemaVersion = 4
    /// The root's file name in an output folder.
    public static let fileName = "manifest.json"

    /// `cardbake 0.1.0 (libvips 8.14.1)`.
    public var generator: String
    public var cards: [Entry]

    /// A card as the build knows it: what an app reads (``card``) and the digests behind it.
    @dynamicMemberLookup
    public struct Entry: Sendable, Equatable {
        public var card: Card
        /// SHA-256 of everything the card depends on (``CardInputs`` and its scales).
        public var key: ContentDigest
        /// The digests behind `key`, so `cardbake check` can say which input changed.
        public var inputs: CardInputs
        /// The key and inputs of the card in each of ``Card/localizations``' locales, by locale tag;
        /// nil for a catalog without `locales`.
        public var localeBuilds: [String: LocaleBuild]?

        public init(card: Card, key: ContentDigest, inputs: CardInputs, localeBuilds: [String: LocaleBuild]? = nil) {
            self.card = card
            self.key = key
            self.inputs = inputs
            self.localeBuilds = localeBuilds
        }

        public init(id: String, title: String, description: String, size: Size, key: ContentDigest, placeholder: Placeholder,
                    images: [String: Image], inputs: CardInputs) {
            self.init(card: Card(id: id, title: title, description: description, size: size, placeholder: placeholder,
                                 images: images),
                      key: key, inputs: inputs)
        }

        public subscript<Value>(dynamicMember field: WritableKeyPath<Card, Value>) -> Value {
            get { card[keyPath: field] }
            set { card[keyPath: field] = newValue }
        }

        /// What the manifest's build pages keep of the entry.
        public var buildRecord: BuildRecord { BuildRecord(id: card.id, key: key, inputs: inputs, localeBuilds: localeBuilds) }
    }

    /// What an app needs of a card: an entry of the manifest's pages.
    public struct Card: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var description: String
        /// In points.
        public var size: Size
        public var placeholder: Placeholder
        /// By scale name (`1x`, `2x`, …).
        public var images: [String: Image]
        /// The locale of the fields above, the catalog's source locale; nil for a catalog without
        /// `locales`, whose manifest has no locale fields at all.
        public var locale: LocaleTag?
        /// The card in each of the catalog's other locales, by locale tag (`"ar"`, `"pt-BR"`); nil
        /// for a catalog without `locales`.
        public var localizations: [String: Localization]?

        public init(id: String, title: String, description: String, size: Size, placeholder: Placeholder,
                    images: [String: Image], locale: LocaleTag? = nil, localizations: [String: Localization]? = nil) {
            self.id = id
            self.title = title
            self.description = description
            self.size = size
            self.placeholder = placeholder
            self.images = images
            self.locale = locale
            self.localizations = localizations
        }
    }

    /// A card in one of its catalog's translated locales: its texts (for an accessibility label, as
    /// they are drawn in the bitmaps) and its bitmaps (`cards/<locale>/<id>@<n>x.<ext>`). The size
    /// and placeholder are given only where they differ from the card's in its source locale.
    public struct Localization: Codable, Sendable, Equatable {
        public var title: String
        public var description: String
        /// nil: the card's ``Card/size``.
        public var size: Size?
        /// nil: the card's ``Card/placeholder``.
        public var placeholder: Placeholder?
        /// By scale name, as ``Card/images``.
        public var images: [String: Image]

        public init(title: String, description: String, size: Size? = nil, placeholder: Placeholder? = nil,
                    images: [String: Image]) {
            self.title = title
            self.description = description
            self.size = size
            self.placeholder = placeholder
            self.images = images
        }
    }

    /// What the build keeps of a card beside its ``Card``, in the build pages an app never reads.
    public struct BuildRecord: Codable, Sendable, Equatable {
        public var id: String
        public var key: ContentDigest
        public var inputs: CardInputs
        /// As ``Entry/localeBuilds``.
        public var localeBuilds: [String: LocaleBuild]?

        public init(id: String, key: ContentDigest, inputs: CardInputs, localeBuilds: [String: LocaleBuild]? = nil) {
            self.id = id
            self.key = key
            self.inputs = inputs
            self.localeBuilds = localeBuilds
        }
    }

    /// What the build keeps of a card in one of its translated locales: the key and the inputs of
    /// its bitmaps there, as ``Entry/key`` and ``Entry/inputs`` are the source locale's.
    public struct LocaleBuild: Codable, Sendable, Equatable {
        public var key: ContentDigest
        public var inputs: CardInputs

        public init(key: ContentDigest, inputs: CardInputs) {
            self.key = key
            self.inputs = inputs
        }
    }

    public struct Size: Codable, Sendable, Equatable {
        public var width: Double
        public var height: Double

        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// What to show in a card's place before its bitmap is decoded, each measured on the card as
    /// painted at its smallest scale.
    public struct Placeholder: Codable, Sendable, Equatable {
        /// The card's mean colour, `#RRGGBB`.
        public var color: String
        /// The card's ThumbHash (Evan Wallace's format, which any ThumbHash decoder reads) in standard
        /// base64 with padding. `CardBakeKit`'s `ThumbHash` decodes it.
        public var thumbhash: String
        /// A tiny blurred copy of the card as a data URL (`data:image/webp;base64,…`), a few hundred
        /// bytes, for a web page to show stretched to the card's size without running any script.
        public var dataURL: String

        public init(color: String, thumbhash: String, dataURL: String) {
            self.color = color
            self.thumbhash = thumbhash
            self.dataURL = dataURL
        }
    }

    public struct Image: Codable, Sendable, Equatable {
        /// Relative to the manifest's folder, e.g. `cards/toucan@2x.png`.
        public var file: String
        /// In pixels.
        public var width: Int
        public var height: Int
        public var bytes: Int
        public var sha256: ContentDigest

        public init(file: String, width: Int, height: Int, bytes: Int, sha256: ContentDigest) {
            self.file = file
            self.width = width
            self.height = height
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public init(generator: String, cards: [Entry]) {
        self.generator = generator
        self.cards = cards
    }

    /// The whole manifest whose root is the file at `url`, its pages read from beside it, each checked
    /// against the digest the root gives it (by `digest`). Throws ``ReadError``.
    public init(contentsOf url: URL, digest: @escaping @Sendable (Data) -> ContentDigest = PortableSHA256.hash)
        throws(ReadError) {
        try self.init(reading: ManifestReader(contentsOf: url, digest: digest))
    }

    /// The whole manifest `reader` reads: every page and build page.
    public init(reading reader: ManifestReader) throws(ReadError) {
        var entries: [Entry] = []
        entries.reserveCapacity(reader.count)
        for section in 0..<reader.sectionCount {
            entries += try reader.entries(ofSection: section)
        }
        self.init(generator: reader.generator, cards: entries)
    }

    /// The manifest at `url`, or nil when there is none, it is not one of this schema, or a page is damaged.
    public static func read(from url: URL,
                            digest: @escaping @Sendable (Data) -> ContentDigest = PortableSHA256.hash) -> CardManifest? {
        try? CardManifest(contentsOf: url, digest: digest)
    }

    /// Writes the manifest: each page handed to `page` (which stores it as ``ManifestPaging/file(for:)``
    /// of the digest it returns), then returns the root's bytes.
    public func written(page: (Data) throws -> ContentDigest) throws -> Data {
        try withoutActuallyEscaping(page) { page in
            var writer = ManifestWriter(generator: generator, page: page)
            for entry in cards {
                try writer.add(entry.pageEntry)
            }
            return try writer.finish()
        }
    }

    /// Every bitmap the manifest names, relative to its folder.
    package var files: Set<String> { Self.files(in: cards.lazy.flatMap(\.card.imagesInEveryLocale)) }

    /// Every file named in `images`, the images of a manifest's cards.
    package static func files(in images: some Sequence<[String: Image]>) -> Set<String> {
        Set(images.flatMap { $0.values.map(\.file) })
    }

    /// The name of a scale in `images`.
    package static func scaleName(_ scale: Int) -> String { "\(scale)x" }

    /// The scale a name in `images` stands for; nil for a name ``scaleName(_:)`` does not make.
    package static func scale(named name: String) -> Int? {
        guard name.hasSuffix("x"), let scale = Int(name.dropLast()), scale > 0, scaleName(scale) == name else { return nil }
        return scale
    }
}

extension CardManifest.Entry {
    /// The entry as the manifest's writer takes it.
    package var pageEntry: ManifestWriter.PageEntry {
        get throws {
            ManifestWriter.PageEntry(id: card.id, size: card.size, card: try ManifestPaging.encoded(card),
                                     build: try ManifestPaging.encoded(buildRecord))
        }
    }
}

extension CardManifest {
    /// Why a manifest could not be read; the description says what is wrong and where.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A file could not be read.
        case unreadable(source: String, reason: String)
        /// The bytes are not a manifest: not JSON, or a field missing or of the wrong type.
        case invalid(source: String, reason: String)
        /// A page's bytes are not those the root names.
        case damagedPage(source: String, file: String)
        /// A manifest of another schema version than the one this code reads.
        case unsupportedSchema(source: String, found: Int, understood: Int)

        public var description: String {
            switch self {
            case let .unreadable(source, reason):
                "\(source): cannot read the manifest: \(reason)"
            case let .invalid(source, reason):
                "\(source): not a cardbake manifest: \(reason)"
            case let .damagedPage(source, file):
                "\(source): the page \(file) does not have the bytes the manifest names (rebuild the cards)"
            case let .unsupportedSchema(source, found, understood):
                "\(source): manifest schema \(found) is not supported; this reader understands schema \(understood)"
                    + (found > understood ? " (update the reader)" : " (rebuild the cards)")
            }
        }

        /// What a decoding error says, with the path of the field at fault.
        static func reason(_ error: any Error) -> String {
            func path(_ context: DecodingError.Context) -> String {
                let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                return path.isEmpty ? "" : "at \(path.hasPrefix(".") ? String(path.dropFirst()) : path): "
            }
            switch error as? DecodingError {
            case let .keyNotFound(key, context)?:
                return path(context) + "missing \"\(key.stringValue)\""
            case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?, let .dataCorrupted(context)?:
                return path(context) + context.debugDescription
            default:
                return "\(error)"
            }
        }
    }
}
