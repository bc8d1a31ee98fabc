import Foundation

extension CardManifest {
    /// What a build needs of the manifest in place: each card's ID, images and inputs, without its
    /// texts and placeholder (most of the manifest's bytes). Read an entry at a time, so that a
    /// large manifest is never decoded whole.
    package struct Outline: Sendable, Equatable {
        /// By ID; the first entry of an ID the manifest repeats.
        package let cards: [String: Card]

        package struct Card: Sendable, Equatable {
            package let id: String
            /// By scale name, as in ``CardManifest/Entry/images``.
            package let images: [String: Image]
            package let inputs: CardInputs
        }

        package init(cards: [Card]) {
            self.cards = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// Every file the manifest names, relative to its folder.
        package var files: Set<String> { CardManifest.files(in: cards.values.lazy.map(\.images)) }

        /// The outline of the manifest at `url`; nil when there is none or it is not a manifest of this
        /// schema. Every entry is decoded whole, on its own, so a manifest ``CardManifest/read(from:)``
        /// refuses gives no outline either. The file is read 64 KiB at a time, never held whole.
        package static func read(from url: URL) -> Outline? {
            guard let file = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? file.close() }
            return try? Outline(manifestIn: { try file.read(upToCount: 1 << 16) ?? Data() })
        }

        /// The outline of the manifest whose bytes `read` hands over a piece at a time, an empty piece
        /// at the end. Throws ``JSONSpans/Malformed`` or a `DecodingError` for anything but a manifest of
        /// this schema.
        init(manifestIn read: @escaping () throws -> Data) throws {
            let decoder = JSONDecoder()
            var cards: [String: Card]?
            var schema: Int?
            var hasGenerator = false
            var spans = JSONSpans(reading: read)
            try spans.members { key, spans in
                switch key {
                case "cards":
                    var entries: [String: Card] = [:]
                    try spans.elements { element in
                        let card = try decoder.decode(Entry.self, from: element).outline
                        if entries[card.id] == nil {
                            entries[card.id] = card
                        }
                    }
                    cards = entries
                case "schema":
                    schema = Int(String(decoding: try spans.value(), as: UTF8.self))
                case "generator":
                    hasGenerator = try spans.value().first == UInt8(ascii: "\"")
                default:
                    _ = try spans.value()
                }
            }
            guard let cards, schema == CardManifest.schemaVersion, hasGenerator else { throw JSONSpans.Malformed() }
            self.cards = cards
        }
    }

    /// Every file named in `images`, the images of a manifest's cards.
    static func files(in images: some Sequence<[String: Image]>) -> Set<String> {
        Set(images.flatMap { $0.values.map(\.file) })
    }
}

extension CardManifest.Entry {
    /// The entry's ID, images and inputs.
    package var outline: CardManifest.Outline.Card {
        CardManifest.Outline.Card(id: id, images: images, inputs: inputs)
    }
}

/// Walks a JSON text by its structure alone (strings, brackets, separators) to find where an
/// object's members and an array's elements are, so that each can be decoded on its own. It checks
/// that structure; what a value holds is left to its decoder. The text is read a piece at a time,
/// and only the value being walked is kept.
struct JSONSpans {
    struct Malformed: Error {}

    private let read: () throws -> Data
    /// The text from ``start`` on, as far as it has been read.
    private var buffer: [UInt8] = []
    /// The position in the text of `buffer`'s first byte.
    private var start = 0
    /// The position in the text of the next byte to walk.
    private var position = 0
    private var atEnd = false

    /// A walk of the text that `read` hands over a piece at a time, an empty piece at the end.
    init(reading read: @escaping () throws -> Data) {
        self.read = read
    }

    /// Calls `member` with each key of the object that is the whole text (keys compared as written,
    /// without unescaping), positioned at its value, which `member` must consume.
    mutating func members(_ member: (String, inout JSONSpans) throws -> Void) throws {
        try expect("{")
        if try !take("}") {
            repeat {
                try skipSpace()
                let key = try string()
                try expect(":")
                try skipSpace()
                try member(String(decoding: key.dropFirst().dropLast(), as: UTF8.self), &self)
            } while try take(",")
            try expect("}")
        }
        try skipSpace()
        guard try byte(at: position) == nil else { throw Malformed() }
    }

    /// Calls `element` with the bytes of each element of the array at the position.
    mutating func elements(_ element: (Data) throws -> Void) throws {
        try expect("[")
        if try take("]") { return }
        repeat {
            try skipSpace()
            try element(try value())
        } while try take(",")
        try expect("]")
    }

    /// The bytes of the value at the position, which it moves past.
    mutating func value() throws -> Data {
        try skipSpace()
        discardWalked()
        let first = position
        guard let opening = try byte(at: position) else { throw Malformed() }
        switch opening {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard let next = try byte(at: position) else { throw Malformed() }
                switch next {
                case UInt8(ascii: "\""):
                    _ = try string()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                default:
                    break
                }
                position += 1
            } while depth > 0
        default:
            while let next = try byte(at: position), !Self.endsScalar(next) {
                position += 1
            }
            guard position > first else { throw Malformed() }
        }
        return Data(buffer[(first - start)..<(position - start)])
    }

    /// The bytes of the string at the position, quotes included.
    private mutating func string() throws -> ArraySlice<UInt8> {
        let first = position
        guard try byte(at: position) == UInt8(ascii: "\"") else { throw Malformed() }
        position += 1
        while let next = try byte(at: position) {
            position += next == UInt8(ascii: "\\") ? 2 : 1
            if next == UInt8(ascii: "\"") {
                return buffer[(first - start)..<(position - start)]
            }
        }
        throw Malformed()
    }

    /// The byte at `index` (at or after ``start``), reading more of the text as needed; nil past its end.
    private mutating func byte(at index: Int) throws -> UInt8? {
        while index - start >= buffer.count {
            guard !atEnd else { return nil }
            let piece = try read()
            atEnd = piece.isEmpty
            buffer.append(contentsOf: piece)
        }
        return buffer[index - start]
    }

    /// Drops the bytes walked past, once they are many: nothing before the position is needed again.
    private mutating func discardWalked() {
        guard position - start >= 1 << 16 else { return }
        buffer.removeFirst(position - start)
        start = position
    }

    /// Moves past `byte`, after any white space, when it is next.
    private mutating func take(_ byte: Unicode.Scalar) throws -> Bool {
        try skipSpace()
        guard try self.byte(at: position) == UInt8(ascii: byte) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: Unicode.Scalar) throws {
        guard try take(byte) else { throw Malformed() }
    }

    private mutating func skipSpace() throws {
        while let next = try byte(at: position), Self.isSpace(next) {
            position += 1
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether `byte` ends a number or a literal.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }
}
