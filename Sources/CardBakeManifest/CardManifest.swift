import Foundation

/// `Output/manifest.json`: what an app reads to show the prerendered cards. Cards are in catalog
/// order and nothing in it depends on time, so the same inputs give the same bytes.
public struct CardManifest: Codable, Sendable, Equatable {
    public static let schemaVersion = 3
    /// The manifest's file name in an output folder.
    public static let fileName = "manifest.json"

    public var schema: Int
    /// `cardbake 0.1.0 (libvips 8.14.1)`.
    public var generator: String
    public var cards: [Entry]

    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var description: String
        /// In points.
        public var size: Size
        /// SHA-256 of everything the card depends on (``CardInputs`` and its scales).
        public var key: ContentDigest
        public var placeholder: Placeholder
        /// By scale name (`1x`, `2x`, …).
        public var images: [String: Image]
        /// The digests behind `key`, so `cardbake check` can say which input changed.
        public var inputs: CardInputs

        public init(id: String, title: String, description: String, size: Size, key: ContentDigest, placeholder: Placeholder, images: [String: Image], inputs: CardInputs) {
            self.id = id
            self.title = title
            self.description = description
            self.size = size
            self.key = key
            self.placeholder = placeholder
            self.images = images
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
        schema = Self.schemaVersion
        self.generator = generator
        self.cards = cards
    }

    /// The manifest in `data`; `source` names it in errors (a path or URL). Throws
    /// ``ReadError/unsupportedSchema(source:found:understood:)`` for a schema other than
    /// ``schemaVersion``, whatever the rest holds, and ``ReadError/invalid(source:reason:)`` for
    /// anything that is not a manifest, saying where.
    public init(data: Data, source: String) throws(ReadError) {
        struct Schema: Decodable { var schema: Int }
        let decoder = JSONDecoder()
        let manifest: CardManifest
        do {
            manifest = try decoder.decode(CardManifest.self, from: data)
        } catch {
            // Another schema's shape fails to decode: say which schema it is rather than what failed.
            if let schema = try? decoder.decode(Schema.self, from: data).schema, schema != Self.schemaVersion {
                throw .unsupportedSchema(source: source, found: schema, understood: Self.schemaVersion)
            }
            throw .invalid(source: source, reason: ReadError.reason(error))
        }
        guard manifest.schema == Self.schemaVersion else {
            throw .unsupportedSchema(source: source, found: manifest.schema, understood: Self.schemaVersion)
        }
        self = manifest
    }

    /// The manifest in the file at `url`. Throws ``ReadError``.
    public init(contentsOf url: URL) throws(ReadError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(source: url.path, reason: error.localizedDescription)
        }
        try self.init(data: data, source: url.path)
    }

    /// The manifest at `url`, or nil when there is none or it is not one of this schema.
    public static func read(from url: URL) -> CardManifest? {
        try? CardManifest(contentsOf: url)
    }

    /// Stable bytes: pretty-printed, keys sorted, a final newline; the bytes `JSONEncoder` gives the
    /// whole manifest with those options.
    public func encoded() throws -> Data {
        var data = Data()
        try encode { data.append($0) }
        return data
    }

    /// ``encoded()``'s bytes handed to `write` a piece at a time: the frame's start, then each entry, then the
    /// frame's end. The manifest of 10,000 cards is about 12 MB; a caller writing it to a file need not
    /// hold it (and gathers the pieces into larger writes itself).
    public func encode(to write: (Data) throws -> Void) throws {
        try Self.encode(in: self, count: cards.count, element: { try Self.elementText(of: cards[$0]) }, to: write)
    }

    /// The bytes of a manifest of `count` cards whose entries have the texts `element(0)`,
    /// `element(1)`, … (``elementText(of:)``), handed to `write` a piece at a time: what
    /// ``encode(to:)`` writes for those entries, without any of them decoded or all of them held.
    public static func encode(generator: String, count: Int, element: (Int) throws -> Data,
                              to write: (Data) throws -> Void) throws {
        try encode(in: CardManifest(generator: generator, cards: []), count: count, element: element, to: write)
    }

    /// The manifest `frame` with `count` cards whose texts `element` gives in place of its own.
    private static func encode(in frame: CardManifest, count: Int, element: (Int) throws -> Data,
                               to write: (Data) throws -> Void) throws {
        let encoder = Self.encoder
        var frame = frame
        guard count > 0 else {
            frame.cards = []
            try write(try encoder.encode(frame) + Data("\n".utf8))
            return
        }
        // The frame of a one-entry manifest, cut where its entry is: JSONEncoder holds a whole
        // document as a tree, several times the size of its text.
        frame.cards = [frameEntry]
        let framed = try encoder.encode(frame)
        guard let slot = framed.range(of: try elementText(of: frameEntry)) else {
            preconditionFailure("a one-entry manifest holds its entry as an indented array element")
        }
        try write(Data(framed[..<slot.lowerBound]))
        try write(try element(0))
        for index in 1..<count {
            try write(Self.elementSeparator + element(index))
        }
        try write(framed[slot.upperBound...] + Data("\n".utf8))
    }

    /// `entry`'s text as an element of `cards` in the encoded manifest: indented, without the
    /// separator. Decodes as the entry.
    public static func elementText(of entry: Entry) throws -> Data {
        indentedAsElement(try encoder.encode(entry))
    }

    /// Pretty-printed, keys sorted, slashes as they are; one for every entry, from any thread.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An entry whose text marks the slot of `cards`' elements in a manifest's frame.
    private static let frameEntry: Entry = {
        let zero = ContentDigest(bytes: [UInt8](repeating: 0, count: 32))!
        return Entry(id: "frame", title: "", description: "", size: Size(width: 0, height: 0), key: zero,
                     placeholder: Placeholder(color: "", thumbhash: "", dataURL: ""),
                     // No empty container: JSONEncoder lays one out by its depth.
                     images: ["1x": Image(file: "", width: 0, height: 0, bytes: 0, sha256: zero)],
                     inputs: CardInputs(image: zero, text: zero, style: zero, fonts: zero, renderer: zero))
    }()

    /// What separates two entries of `cards` in the encoded manifest, and what indents their lines.
    private static let elementSeparator = Data(",\n    ".utf8)
    private static let elementIndent = Array("    ".utf8)

    /// `json`, an entry encoded on its own, with each line after the first indented as an element of
    /// `cards` (JSON text has a newline only between tokens).
    private static func indentedAsElement(_ json: Data) -> Data {
        var indented: [UInt8] = []
        indented.reserveCapacity(json.count + json.count / 4)
        json.withUnsafeBytes { bytes in
            for byte in bytes {
                indented.append(byte)
                if byte == UInt8(ascii: "\n") {
                    indented.append(contentsOf: elementIndent)
                }
            }
        }
        return Data(indented)
    }

    /// Every file the manifest names, relative to its folder.
    package var files: Set<String> { Self.files(in: cards.lazy.map(\.images)) }

    /// The name of a scale in `images`.
    package static func scaleName(_ scale: Int) -> String { "\(scale)x" }

    /// The scale a name in `images` stands for; nil for a name ``scaleName(_:)`` does not make.
    package static func scale(named name: String) -> Int? {
        guard name.hasSuffix("x"), let scale = Int(name.dropLast()), scale > 0, scaleName(scale) == name else { return nil }
        return scale
    }
}

extension CardManifest {
    /// Why a manifest could not be read; the description says what is wrong and where.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file could not be read.
        case unreadable(source: String, reason: String)
        /// The bytes are not a manifest: not JSON, or a field missing or of the wrong type.
        case invalid(source: String, reason: String)
        /// A manifest of another schema version than the one this code reads.
        case unsupportedSchema(source: String, found: Int, understood: Int)

        public var description: String {
            switch self {
            case let .unreadable(source, reason):
                "\(source): cannot read the manifest: \(reason)"
            case let .invalid(source, reason):
                "\(source): not a cardbake manifest: \(reason)"
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
