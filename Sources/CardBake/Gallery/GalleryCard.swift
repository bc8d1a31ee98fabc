import CardBakeManifest
import Foundation

/// What the preview gallery shows of one card.
struct GalleryCard: Sendable {
    let id: String
    let title: String
    /// In points, which the page lays out as CSS pixels.
    let width: Double
    let height: Double
    /// `#RRGGBB`: the first paint, before any script runs.
    let color: String
    /// Standard base64 ThumbHash, painted by the page's script over the colour; nil leaves the colour.
    let thumbhash: String?
    /// A tiny image as a `data:` URL: the placeholder when the page's script does not run.
    let dataURL: String?
    /// Each scale's file, relative to the page, smallest scale first.
    let images: [(scale: Int, file: String)]

    init(id: String, title: String, width: Double, height: Double, color: String, thumbhash: String?,
         dataURL: String?, images: [(scale: Int, file: String)]) {
        self.id = id
        self.title = title
        self.width = width
        self.height = height
        self.color = color
        self.thumbhash = thumbhash
        self.dataURL = dataURL
        self.images = images.sorted { $0.scale < $1.scale }
    }

    /// The one mapping from a manifest entry to what the page needs.
    init(entry: CardManifest.Entry) {
        self.init(entry: entry, files: CardFile.files(of: entry))
    }

    /// ``init(entry:)`` with the entry's `files` (``CardFile/files(of:)``), made already by the caller.
    init(entry: CardManifest.Entry, files: [CardFile]) {
        self.init(id: entry.id, title: entry.title, width: entry.size.width, height: entry.size.height,
                  color: entry.placeholder.color, thumbhash: entry.placeholder.thumbhash,
                  dataURL: entry.placeholder.dataURL,
                  images: files.map { (scale: $0.scale, file: $0.file) })
    }
}

/// A gallery page's cards, handed out one at a time as their lines of the page
/// (``GalleryPage/figureLine(_:)``), so that the page of a large build is made without holding them.
struct GalleryCards: Sendable {
    let count: Int
    /// Every scale some card has an image at.
    let scales: Set<Int>
    /// Calls `body` with each card's line, in order; throws what reading a line or `body` throws.
    let forEach: @Sendable (_ body: (Data) throws -> Void) throws -> Void

    init(count: Int, scales: Set<Int>, forEach: @escaping @Sendable (_ body: (Data) throws -> Void) throws -> Void) {
        self.count = count
        self.scales = scales
        self.forEach = forEach
    }

    /// The cards of a manifest's `entries`.
    init(entries: [CardManifest.Entry]) {
        self.init(entries.map(GalleryCard.init(entry:)))
    }

    init(_ cards: [GalleryCard]) {
        self.init(count: cards.count, scales: Set(cards.flatMap { $0.images.map(\.scale) })) { body in
            for card in cards {
                try body(GalleryPage.figureLine(card))
            }
        }
    }
}
