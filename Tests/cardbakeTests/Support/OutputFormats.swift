import Foundation

/// Pixel sizes of the demo images used as fixtures (from their headers, checked with `file`).
enum DemoImage {
    static let sizes: [String: (width: Int, height: Int)] = [
        "astronaut.jpg": (512, 512),
        "chelsea.jpg": (451, 300),
        "coffee.jpg": (600, 400),
        "coins.jpg": (384, 303),
        "rocket.jpg": (640, 427),
        "rocket-tall.jpg": (320, 427),
        "chelsea-eyes.jpg": (451, 180),
        "retina-cutout.png": (448, 448),
    ]

    /// The card's size in points with the default style (CARD_SPEC: W = 320, T = 300):
    /// the image fitted to the width, its height rounded up, plus the text area.
    static func cardSize(of image: String) -> (width: Int, height: Int) {
        let source = sizes[image]!
        let featureHeight = Int((320.0 * Double(source.height) / Double(source.width)).rounded(.up))
        return (320, featureHeight + 300)
    }

    /// The card's size in pixels at `scale`.
    static func pixelSize(of image: String, scale: Int) -> (width: Int, height: Int) {
        let points = cardSize(of: image)
        return (points.width * scale, points.height * scale)
    }
}

/// Reads the size from a PNG's IHDR chunk; nil when `data` is not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
        return nil
    }
    func bigEndian(_ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    return (bigEndian(16), bigEndian(20))
}

/// Reads the size from a JPEG's start-of-frame segment; nil when `data` is not a JPEG.
func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
    var offset = 2
    while offset + 9 <= bytes.count, bytes[offset] == 0xFF {
        let marker = bytes[offset + 1]
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        // SOF0 to SOF15, leaving out DHT (C4), JPG (C8) and DAC (CC), which share the range.
        if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
            let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
            let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
            return (width, height)
        }
        offset += 2 + length
    }
    return nil
}

/// The manifest read from its files as any reader of the documented layout would, with nothing of
/// cardbake's own code: the root, its card pages in order, and the build pages joined card by card.
/// Reading fails if a field is missing or mistyped, or a page is missing.
struct ManifestFile: Equatable {
    var schema: Int
    var generator: String
    var cards: [Entry]

    struct Entry: Equatable {
        var id: String
        var title: String
        var description: String
        var size: Size
        var key: String
        var placeholder: Placeholder
        var images: [String: Image]
        var inputs: Inputs
        /// The source locale, for a catalog with `locales`.
        var locale: String? = nil
        var localizations: [String: Localization]? = nil
    }

    /// A card as the root's head and the card pages hold it.
    private struct Card: Decodable {
        var id: String
        var title: String
        var description: String
        var size: Size
        var placeholder: Placeholder
        var images: [String: Image]
        var locale: String?
        var localizations: [String: Localization]?
    }

    struct Localization: Decodable, Equatable {
        var title: String
        var description: String
        var size: Size?
        var placeholder: Placeholder?
        var images: [String: Image]
    }

    /// A card as the build pages hold it.
    private struct Build: Decodable {
        var id: String
        var key: String
        var inputs: Inputs
    }

    private struct Root: Decodable {
        var schema: Int
        var generator: String
        var count: Int
        var head: [Card]
        var pages: [Reference]
        var build: String
    }

    private struct Reference: Decodable { var sha256: String }
    private struct Cards<Element: Decodable>: Decodable { var cards: [Element] }
    private struct BuildIndex: Decodable { var pages: [String] }

    struct Size: Decodable, Equatable {
        var width: Double
        var height: Double
    }

    struct Placeholder: Decodable, Equatable {
        var color: String
        var thumbhash: String
        var dataURL: String
    }

    struct Image: Decodable, Equatable {
        var file: String
        var width: Int
        var height: Int
        var bytes: Int
        var sha256: String
    }

    struct Inputs: Decodable, Equatable {
        var image: String
        var text: String
        var style: String
        var renderer: String
    }

    static func read(from url: URL) throws -> ManifestFile {
        let decoder = JSONDecoder()
        let folder = url.deletingLastPathComponent()
        func page<Page: Decodable>(_ digest: String, as type: Page.Type) throws -> Page {
            try decoder.decode(type, from: Data(contentsOf: folder.appendingPathComponent("manifest/\(digest).json")))
        }
        let root = try decoder.decode(Root.self, from: Data(contentsOf: url))
        let cards = try root.head + root.pages.flatMap { try page($0.sha256, as: Cards<Card>.self).cards }
        let builds = try page(root.build, as: BuildIndex.self).pages.flatMap { try page($0, as: Cards<Build>.self).cards }
        guard cards.count == root.count, builds.map(\.id) == cards.map(\.id) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return ManifestFile(schema: root.schema, generator: root.generator, cards: zip(cards, builds).map { card, build in
            Entry(id: card.id, title: card.title, description: card.description, size: card.size, key: build.key,
                  placeholder: card.placeholder, images: card.images, inputs: build.inputs, locale: card.locale,
                  localizations: card.localizations)
        })
    }

    func entry(_ id: String) -> Entry? { cards.first { $0.id == id } }
}

/// The `--report` file.
struct ReportFile: Decodable {
    var cards: [Card]
    var seconds: Double
    var removed: [String]

    struct Card: Decodable {
        var id: String
        var index: Int
        var status: String
        var seconds: Double
        var stages: Stages?
        var field: String?
        var reason: String?
    }

    struct Stages: Decodable {
        var background: String
        var images: [String: String]
        /// By locale, then scale name.
        var translations: [String: [String: String]]?
    }

    static func read(from url: URL) throws -> ReportFile {
        try JSONDecoder().decode(ReportFile.self, from: Data(contentsOf: url))
    }

    func card(_ id: String) -> Card? { cards.first { $0.id == id } }
}

/// `N cards: R rendered, C cached, F failed in S s (X cards/s)`, parsed; nil for any other line.
struct Summary: Equatable {
    var total: Int
    var rendered: Int
    var cached: Int
    var failed: Int

    init(total: Int, rendered: Int, cached: Int, failed: Int) {
        (self.total, self.rendered, self.cached, self.failed) = (total, rendered, cached, failed)
    }

    init?(line: String) {
        let pattern = /^(\d+) cards?: (\d+) rendered, (\d+) cached, (\d+) failed in \d+\.\d{2} s \(\d+\.\d cards\/s\)$/
        guard let match = line.wholeMatch(of: pattern) else { return nil }
        total = Int(match.1)!
        rendered = Int(match.2)!
        cached = Int(match.3)!
        failed = Int(match.4)!
    }

    /// The summary line among stdout's lines.
    static func find(in result: RunResult) -> Summary? {
        result.stdoutLines.lazy.compactMap(Summary.init(line:)).first
    }
}

/// 64 lowercase hexadecimal digits.
func isHexDigest(_ text: String) -> Bool {
    text.utf8.count == 64 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
}
