import Foundation

/// The manifest's layout on disk, one format for every catalog size (docs/apps-and-formats.md):
///
/// - `manifest.json`, the root (``Root``): the card count, the cards' sizes as runs, the first
///   ``headCount`` cards whole (an app's first screen), and the digest of every page;
/// - card pages, `manifest/<sha256>.json`: `{"cards":[…]}` of the cards after the head, in catalog
///   order; a card starts a new page when ``startsPage(_:cardsInPage:)`` says so, which depends on
///   its ID and the page's length only, so an edit, an insertion or a removal changes one page or two;
/// - ID pages: `{"ids":[[id, first], …]}`, the IDs sorted by their bytes, each with the ID of the first
///   card of its section (the head or a page), cut the same way;
/// - build pages, one per section, `{"cards":[{"id","key","inputs"}…]}`, listed by a build index
///   (`{"pages":[sha256…]}`) that the root names as `build`: what the build keeps, which an app never reads.
///
/// Every page is named by the SHA-256 of its bytes, so a page never changes once written and a root
/// names exactly the pages it was written with.
public enum ManifestPaging {
    /// Cards held whole in the root.
    public static let headCount = 32
    /// A card after the head starts a page when its ID's hash is 0 modulo this (so pages average this many cards)…
    static let cardsPerPage: UInt64 = 128
    /// …or when the page already has this many (rare: about one page in 55).
    public static let maximumCardsPerPage = 512
    /// The same for ID pages, over the sorted IDs.
    static let idsPerPage: UInt64 = 1024
    public static let maximumIDsPerPage = 4096
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

    /// Whether the card with `id` starts a new page after a page of `cardsInPage` cards.
    public static func startsPage(_ id: String, cardsInPage: Int) -> Bool {
        cardsInPage == maximumCardsPerPage || hash(id) % cardsPerPage == 0
    }

    /// Whether `id` starts a new ID page after one of `idsInPage` IDs.
    public static func startsIDPage(_ id: String, idsInPage: Int) -> Bool {
        idsInPage == maximumIDsPerPage || (hash(id) >> 32) % idsPerPage == 0
    }

    /// 64-bit FNV-1a of the ID's UTF-8 bytes: simple to compute in any language that reads the manifest.
    static func hash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
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
