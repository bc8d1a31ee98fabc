import Foundation

/// The manifest's layout on disk, one format for every catalog size (docs/apps-and-formats.md):
///
/// - `manifest.json`, the root (``Root``): the card count, the cards' sizes as runs, the first
///   ``headCount`` cards whole (an app's first screen), and the digest of every page;
/// - card pages, `manifest/<sha256>.json`: `{"cards":[…]}` of the cards after the head, in catalog
///   order, cut by ``cards`` (a ``PageBoundary``: by the cards' IDs, so an edit, an insertion or a
///   removal changes one page or two);
/// - ID pages: `{"ids":[[id, first], …]}`, the IDs sorted by their bytes, each with the ID of the first
///   card of its section (the head or a page), cut by ``ids``;
/// - build pages, one per section, `{"cards":[{"id","key","inputs"}…]}`, listed by a build index
///   (`{"pages":[sha256…]}`) that the root names as `build`: what the build keeps, which an app never reads.
///
/// Every page is named by the SHA-256 of its bytes, so a page never changes once written and a root
/// names exactly the pages it was written with.
public enum ManifestPaging {
    /// Cards held whole in the root.
    public static let headCount = 32
    /// The card pages after the head: 128 cards on average, at most 512 (a forced cut is rare, about
    /// one page in 55).
    public static let cards = PageBoundary(averageCount: 128, maximumCount: 512)
    /// The ID pages, over the sorted IDs.
    public static let ids = PageBoundary(averageCount: 1024, maximumCount: 4096)
    /// The folder beside the root that holds the pages.
    public static let folder = "manifest"

    /// The root: what an app reads first.
    public struct Root: Codable, Sendable, Equatable {
        public var schema: Int
        public var generator: String
        public var count: Int
        /// The cards' sizes in catalog order, as runs of equal sizes.
        public var sizes: [SizeRun]
        /// The first cards (at most ``headCount``), whole.
        public var head: [CardManifest.Card]
        /// The card pages after the head, in order.
        public var pages: [PageReference]
        /// The ID pages, in the IDs' order.
        public var ids: [PageReference]
        /// The build index's digest (its file is ``file(for:)`` of it).
        public var build: ContentDigest
    }

    /// `count` cards in a row of one size.
    public struct SizeRun: Codable, Sendable, Equatable {
        public var count: Int
        public var width: Double
        public var height: Double
    }

    /// A page as the root names it: its first ID, how many it holds, and its bytes' digest.
    public struct PageReference: Codable, Sendable, Equatable {
        public var first: String
        public var count: Int
        public var sha256: ContentDigest
    }

    struct CardPage: Codable { var cards: [CardManifest.Card] }
    struct BuildPage: Codable { var cards: [CardManifest.BuildRecord] }
    struct BuildIndex: Codable { var pages: [ContentDigest] }
    struct IDPage: Codable { var ids: [[String]] }

    /// The file of the page whose bytes have `digest`, relative to the root's folder.
    public static func file(for digest: ContentDigest) -> String {
        "\(folder)/\(digest).json"
    }

    /// Whether `file` (relative to the root's folder) is a page name ``file(for:)`` makes.
    package static func isPage(_ file: String) -> Bool {
        let prefix = folder + "/", suffix = ".json"
        guard file.hasPrefix(prefix), file.hasSuffix(suffix) else { return false }
        return ContentDigest(hex: String(file.dropFirst(prefix.count).dropLast(suffix.count))) != nil
    }

    /// `value` as the manifest writes JSON: compact, keys sorted, slashes as they are.
    public static func encoded(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
