import Foundation

/// `Output/manifest.json`: what an app reads to show the prerendered cards. Cards are in catalog
/// order and nothing in it depends on time, so the same inputs give the same bytes.
public struct Manifest: Codable, Sendable, Equatable {
    public static let schemaVersion = 1

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
        public var key: Digest
        public var placeholder: Placeholder
        /// By scale name (`1x`, `2x`, …).
        public var images: [String: Image]
        /// The digests behind `key`, so `cardbake check` can say which input changed.
        public var inputs: CardInputs
    }

    public struct Size: Codable, Sendable, Equatable {
        public var width: Double
        public var height: Double
    }

    public struct Placeholder: Codable, Sendable, Equatable {
        /// The card's dominant colour, `#RRGGBB`, to show before the bitmap is decoded.
        public var color: String
    }

    public struct Image: Codable, Sendable, Equatable {
        /// Relative to the manifest's folder, e.g. `cards/toucan@2x.png`.
        public var file: String
        /// In pixels.
        public var width: Int
        public var height: Int
        public var bytes: Int
        public var sha256: Digest
    }

    public init(generator: String, cards: [Entry]) {
        schema = Self.schemaVersion
        self.generator = generator
        self.cards = cards
    }

    /// The manifest at `url`, or nil when there is none or it is not one cardbake wrote.
    public static func read(from url: URL) -> Manifest? {
        guard let data = try? Data(contentsOf: url),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
              manifest.schema == schemaVersion else { return nil }
        return manifest
    }

    /// Stable bytes: pretty-printed, keys sorted, a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Every file the manifest names, relative to its folder.
    var files: Set<String> {
        Set(cards.flatMap { $0.images.values.map(\.file) })
    }

    /// The name of a scale in `images`.
    static func scaleName(_ scale: Int) -> String { "\(scale)x" }
}
