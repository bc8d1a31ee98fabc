import Foundation

/// Reads a manifest lazily: the root when made, then a page when a card on it is first asked for,
/// each checked against the digest the root names before it is decoded. An app lays out its whole
/// list from ``count`` and ``size(at:)``, shows its first screen from the root alone (the first
/// ``ManifestPaging/headCount`` cards) and reads one page for any other card, by position or ID (an ID
/// first finds its position in an ID page). Keeps the last few pages it read; safe from any thread.
///
///     let manifest = try ManifestReader(contentsOf: bundle.url(forResource: "manifest", withExtension: "json")!)
///     let first = try manifest.cards(in: 0..<min(8, manifest.count))
public final class ManifestReader: @unchecked Sendable {
    /// Names the manifest in errors: the root's path or URL.
    public let source: String
    public let root: ManifestPaging.Root
    public var generator: String { root.generator }
    /// How many cards the manifest lists.
    public var count: Int { root.count }

    private let load: @Sendable (String) throws -> Data
    private let digest: @Sendable (Data) -> ContentDigest
    /// The position of each section's first card: the head's, then each page's.
    private let sectionStarts: [Int]
    /// Each section by the ID of its first card.
    private let sectionsByFirst: [String: Int]
    /// The position after each run of ``ManifestPaging/Root/sizes``.
    private let sizeRunEnds: [Int]
    private let lock = NSLock()
    private var recent: [(digest: ContentDigest, page: Any)] = []
    private static let pagesKept = 8

    /// The manifest whose root is the file at `url`, its pages read from the folder beside it when
    /// needed. `digest` is SHA-256; the default is Swift's own, for apps. Throws ``CardManifest/ReadError``.
    public convenience init(contentsOf url: URL,
                            digest: @escaping @Sendable (Data) -> ContentDigest = PortableSHA256.hash) throws(CardManifest.ReadError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(source: url.path, reason: error.localizedDescription)
        }
        let folder = url.deletingLastPathComponent()
        try self.init(root: data, source: url.path, digest: digest) { file in
            try Data(contentsOf: folder.appendingPathComponent(file))
        }
    }

    /// The manifest whose root has the bytes `data`; `load` gives a page's bytes by its file
    /// (``ManifestPaging/file(for:)``, relative to the root), from disk, a bundle or a server.
    public init(root data: Data, source: String, digest: @escaping @Sendable (Data) -> ContentDigest,
                load: @escaping @Sendable (String) throws -> Data) throws(CardManifest.ReadError) {
        struct Schema: Decodable { var schema: Int }
        let decoder = JSONDecoder()
        guard let schema = try? decoder.decode(Schema.self, from: data).schema else {
            throw .invalid(source: source, reason: Self.reason(decoding: Schema.self, from: data))
        }
        guard schema == CardManifest.schemaVersion else {
            throw .unsupportedSchema(source: source, found: schema, understood: CardManifest.schemaVersion)
        }
        let root: ManifestPaging.Root
        do {
            root = try decoder.decode(ManifestPaging.Root.self, from: data)
        } catch {
            throw .invalid(source: source, reason: CardManifest.ReadError.reason(error))
        }
        var starts = [0], position = root.head.count
        for page in root.pages {
            starts.append(position)
            position += max(0, page.count)
        }
        var ends: [Int] = [], end = 0
        for run in root.sizes {
            end += max(0, run.count)
            ends.append(end)
        }
        let problem: String? =
            root.head.count > ManifestPaging.headCount ? "the head holds more than \(ManifestPaging.headCount) cards"
            : root.pages.contains(where: { !(1...ManifestPaging.cards.maximumCount).contains($0.count) }) ? "a page's count is out of range"
            : position != root.count ? "count is \(root.count) but the head and pages hold \(position) cards"
            : end != root.count || root.sizes.contains(where: { $0.count < 1 }) ? "the size runs do not cover the cards"
            : root.ids.reduce(0, { $0 + max(0, $1.count) }) != root.count ? "the ID pages do not list every card"
            : nil
        if let problem { throw .invalid(source: source, reason: problem) }
        self.source = source
        self.root = root
        self.load = load
        self.digest = digest
        sectionStarts = starts
        sizeRunEnds = ends
        sectionsByFirst = Dictionary((root.head.first.map { [$0.id] } ?? []) .map { ($0, 0) }
                                     + root.pages.enumerated().map { ($1.first, $0 + 1) },
                                     uniquingKeysWith: { first, _ in first })
    }

    /// The size of the card at `position` (in `0..<count`), in points, without reading any page.
    public func size(at position: Int) -> CardManifest.Size {
        precondition((0..<count).contains(position), "no card at \(position)")
        let run = root.sizes[Self.firstIndex(in: sizeRunEnds, above: position)]
        return CardManifest.Size(width: run.width, height: run.height)
    }

    /// The card at `position` (in `0..<count`), reading its page if it is not in the root.
    public func card(at position: Int) throws(CardManifest.ReadError) -> CardManifest.Card {
        try cards(in: position..<position + 1)[0]
    }

    /// The cards at `positions` (within `0..<count`), in order.
    public func cards(in positions: Range<Int>) throws(CardManifest.ReadError) -> [CardManifest.Card] {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= count, "no cards at \(positions)")
        var cards: [CardManifest.Card] = []
        var position = positions.lowerBound
        while position < positions.upperBound {
            let section = Self.firstIndex(in: sectionStarts, above: position) - 1
            let start = sectionStarts[section]
            let held = try self.section(section)
            let end = min(positions.upperBound, start + held.count)
            cards += held[(position - start)..<(end - start)]
            position = end
        }
        return cards
    }

    /// The card with `id`; nil when the manifest has none. Reads an ID page and the card's page.
    public func card(id: String) throws(CardManifest.ReadError) -> CardManifest.Card? {
        guard let position = try position(ofID: id) else { return nil }
        return try card(at: position)
    }

    /// The position of the card with `id`; nil when the manifest has none. Reads one ID page.
    public func position(ofID id: String) throws(CardManifest.ReadError) -> Int? {
        let after = Self.firstIndex(in: root.ids.map(\.first), above: id) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard after > 0 else { return nil }
        let reference = root.ids[after - 1]
        let page: ManifestPaging.IDPage = try self.page(reference.sha256)
        guard let pair = page.ids.first(where: { $0.count == 2 && $0[0] == id }) else { return nil }
        guard let section = sectionsByFirst[pair[1]] else {
            throw .invalid(source: source, reason: "the ID page \(ManifestPaging.file(for: reference.sha256)) names no section for \(id)")
        }
        let position = sectionStarts[section] + (try self.section(section).firstIndex { $0.id == id } ?? -1)
        guard position >= sectionStarts[section] else {
            throw .invalid(source: source, reason: "the page the ID page names for \(id) does not hold it")
        }
        return position
    }

    /// How many sections the cards are in: the head and each page.
    package var sectionCount: Int { sectionStarts.count }

    /// The cards of section `index`: the head's from the root, a page's read and checked.
    package func section(_ index: Int) throws(CardManifest.ReadError) -> [CardManifest.Card] {
        guard index > 0 else { return root.head }
        let reference = root.pages[index - 1]
        let page: ManifestPaging.CardPage = try self.page(reference.sha256)
        guard page.cards.count == reference.count, page.cards.first?.id == reference.first else {
            throw .invalid(source: source, reason: "\(ManifestPaging.file(for: reference.sha256)) does not hold the cards the root lists")
        }
        return page.cards
    }

    /// What the build keeps of the cards of section `index`, in their order.
    package func buildRecords(ofSection index: Int) throws(CardManifest.ReadError) -> [CardManifest.BuildRecord] {
        let pages = try buildIndex().pages
        guard pages.count == sectionCount else {
            throw .invalid(source: source, reason: "the build index does not list a page per section")
        }
        let page: ManifestPaging.BuildPage = try self.page(pages[index])
        return page.cards
    }

    /// The entries of section `index`: its cards with what the build keeps of each.
    package func entries(ofSection index: Int) throws(CardManifest.ReadError) -> [CardManifest.Entry] {
        let cards = try section(index)
        let records = try buildRecords(ofSection: index)
        guard records.map(\.id) == cards.map(\.id) else {
            throw .invalid(source: source, reason: "the build page of section \(index) does not list its cards")
        }
        return zip(cards, records).map { CardManifest.Entry(card: $0, key: $1.key, inputs: $1.inputs, localeBuilds: $1.localeBuilds) }
    }

    /// Every page file the root names, directly or through the build index, relative to its folder.
    package func pageFiles() throws(CardManifest.ReadError) -> Set<String> {
        let digests = [root.build] + root.pages.map(\.sha256) + root.ids.map(\.sha256) + (try buildIndex().pages)
        return Set(digests.map(ManifestPaging.file(for:)))
    }

    private func buildIndex() throws(CardManifest.ReadError) -> ManifestPaging.BuildIndex {
        try page(root.build)
    }

    /// The page with `digest`, decoded; read and checked unless it is one of the last few read.
    private func page<Page: Decodable>(_ digest: ContentDigest) throws(CardManifest.ReadError) -> Page {
        let kept = lock.withLock { recent.first { $0.digest == digest }?.page as? Page }
        if let kept { return kept }
        let file = ManifestPaging.file(for: digest)
        let data: Data
        do {
            data = try load(file)
        } catch {
            throw .unreadable(source: "\(source): \(file)", reason: "\(error)")
        }
        guard self.digest(data) == digest else { throw .damagedPage(source: source, file: file) }
        let page: Page
        do {
            page = try JSONDecoder().decode(Page.self, from: data)
        } catch {
            throw .invalid(source: "\(source): \(file)", reason: CardManifest.ReadError.reason(error))
        }
        lock.withLock {
            recent.removeAll { $0.digest == digest }
            recent.append((digest, page))
            if recent.count > Self.pagesKept { recent.removeFirst() }
        }
        return page
    }

    /// The index of the first element of `sorted` above `value` (`sorted.count` when none is).
    private static func firstIndex<Value>(in sorted: [Value], above value: Value,
                                          by precedes: (Value, Value) -> Bool) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if precedes(value, sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func firstIndex(in sorted: [Int], above value: Int) -> Int {
        firstIndex(in: sorted, above: value, by: <)
    }

    private static func reason<Value: Decodable>(decoding type: Value.Type, from data: Data) -> String {
        do {
            _ = try JSONDecoder().decode(type, from: data)
            return "unreadable"
        } catch {
            return CardManifest.ReadError.reason(error)
        }
    }
}
