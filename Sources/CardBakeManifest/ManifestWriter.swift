import Foundation

/// Writes a manifest in ``ManifestPaging``'s layout from its entries, one at a time in catalog order,
/// each already encoded: only the page being filled and the IDs are held, never the whole manifest.
public struct ManifestWriter {
    /// One card as the writer takes it: its ID and size, and its two texts in the pages.
    public struct PageEntry: Sendable, Equatable {
        public let id: String
        public let size: CardManifest.Size
        /// ``CardManifest/Card`` as ``ManifestPaging/encoded(_:)`` writes it: compact JSON, keys sorted.
        public let card: Data
        /// ``CardManifest/BuildRecord`` likewise.
        public let build: Data

        public init(id: String, size: CardManifest.Size, card: Data, build: Data) {
            self.id = id
            self.size = size
            self.card = card
            self.build = build
        }
    }

    private let generator: String
    /// Stores a page's bytes under ``ManifestPaging/file(for:)`` of the digest it returns.
    private let page: (Data) throws -> ContentDigest
    private var count = 0
    private var sizes: [ManifestPaging.SizeRun] = []
    /// The section being filled: the head until it is full, then each page in turn.
    private var section = Section()
    private var head: Section?
    private var pages: [ManifestPaging.PageReference] = []
    private var buildPages: [ContentDigest] = []
    /// Each ID with the first ID of its section.
    private var ids: [(id: String, first: String)] = []

    private struct Section {
        var first: String?
        var cards: [Data] = []
        var builds: [Data] = []
    }

    /// A writer of the manifest of `generator` whose pages go to `page`.
    public init(generator: String, page: @escaping (Data) throws -> ContentDigest) {
        self.generator = generator
        self.page = page
    }

    /// Adds the next card. Throws what storing a page throws.
    public mutating func add(_ entry: PageEntry) throws {
        let inHead = head == nil
        if inHead ? section.cards.count == ManifestPaging.headCount
            : ManifestPaging.cards.starts(entry.id, after: section.cards.count) {
            try close()
        }
        if section.first == nil { section.first = entry.id }
        section.cards.append(entry.card)
        section.builds.append(entry.build)
        ids.append((entry.id, section.first!))
        if let last = sizes.last, last.width == entry.size.width, last.height == entry.size.height {
            sizes[sizes.count - 1].count += 1
        } else {
            sizes.append(ManifestPaging.SizeRun(count: 1, width: entry.size.width, height: entry.size.height))
        }
        count += 1
    }

    /// Stores the last pages and returns the root's bytes.
    public mutating func finish() throws -> Data {
        try close()
        guard let head else { preconditionFailure("closing twice closes the head") }
        let buildIndex = try page(ManifestPaging.encoded(ManifestPaging.BuildIndex(pages: buildPages)))
        // Keys in sorted order, as ManifestPaging.encoded writes every other object.
        var root = Data("{\"build\":".utf8) + (try ManifestPaging.encoded(buildIndex))
        root += Data(",\"count\":\(count),\"generator\":".utf8)
        root += try ManifestPaging.encoded(generator)
        root += Data(",\"head\":".utf8) + Self.array(head.cards)
        root += Data(",\"ids\":".utf8) + (try ManifestPaging.encoded(try idPages()))
        root += Data(",\"pages\":".utf8) + (try ManifestPaging.encoded(pages))
        root += Data(",\"schema\":\(CardManifest.schemaVersion),\"sizes\":".utf8) + (try ManifestPaging.encoded(sizes))
        root += Data("}\n".utf8)
        return root
    }

    /// Ends the section being filled: the head is kept for the root, a page is stored; each with its build page.
    private mutating func close() throws {
        let closing = section
        section = Section()
        if head != nil {
            guard let first = closing.first else { return }
            let digest = try page(Data("{\"cards\":".utf8) + Self.array(closing.cards) + Data("}".utf8))
            pages.append(ManifestPaging.PageReference(first: first, count: closing.cards.count, sha256: digest))
        } else {
            head = closing
        }
        buildPages.append(try page(Data("{\"cards\":".utf8) + Self.array(closing.builds) + Data("}".utf8)))
    }

    /// The ID pages, stored, and their references.
    private func idPages() throws -> [ManifestPaging.PageReference] {
        let sorted = ids.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        var references: [ManifestPaging.PageReference] = []
        var start = 0
        for index in sorted.indices where index == sorted.endIndex - 1
            || ManifestPaging.ids.starts(sorted[index + 1].id, after: index + 1 - start) {
            let slice = sorted[start...index]
            let digest = try page(ManifestPaging.encoded(ManifestPaging.IDPage(ids: slice.map { [$0.id, $0.first] })))
            references.append(ManifestPaging.PageReference(first: slice.first!.id, count: slice.count, sha256: digest))
            start = index + 1
        }
        return references
    }

    /// `[a,b,…]` of JSON texts.
    private static func array(_ elements: [Data]) -> Data {
        var array = Data("[".utf8)
        for (index, element) in elements.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            array += element
        }
        array.append(UInt8(ascii: "]"))
        return array
    }
}
