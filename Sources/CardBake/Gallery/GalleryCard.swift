import CardBakeCache
import CardBakeManifest
import Foundation

/// What the preview gallery shows of one card.
struct GalleryCard: Sendable {
    let id: String
    let title: String
    /// In points, which the page lays out as CSS pixels.
    let width: Double
    let height: Double
    /// `#RRGGBB`: the first paint, before the bitmap.
    let color: String
    /// Standard base64 ThumbHash, painted by the page's script over the colour; nil leaves the colour.
    let thumbhash: String?
    /// A tiny image as a `data:` URL, the placeholder painted first; when there is one, the ThumbHash is not painted.
    let dataURL: String?
    /// Each scale's file, relative to the page, smallest scale first.
    let images: [(scale: Int, file: String)]
    /// The card in each translated locale, by tag: its title, placeholder and files there.
    let translations: [(locale: String, card: GalleryCard)]

    init(id: String, title: String, width: Double, height: Double, color: String, thumbhash: String?,
         dataURL: String?, images: [(scale: Int, file: String)], translations: [(locale: String, card: GalleryCard)] = []) {
        self.id = id
        self.title = title
        self.width = width
        self.height = height
        self.color = color
        self.thumbhash = thumbhash
        self.dataURL = dataURL
        self.images = images.sorted { $0.scale < $1.scale }
        self.translations = translations
    }

    /// The one mapping from a manifest entry to what the page needs.
    init(entry: CardManifest.Entry) {
        let translations = entry.card.translationsByTag.map { locale, localization in
            (locale, GalleryCard(id: entry.id, title: localization.title, size: localization.size ?? entry.size,
                                 placeholder: localization.placeholder ?? entry.placeholder, images: localization.images))
        }
        self.init(id: entry.id, title: entry.title, size: entry.size, placeholder: entry.placeholder, images: entry.images,
                  translations: translations)
    }

    private init(id: String, title: String, size: CardManifest.Size, placeholder: CardManifest.Placeholder,
                 images: [String: CardManifest.Image], translations: [(locale: String, card: GalleryCard)] = []) {
        self.init(id: id, title: title, width: size.width, height: size.height, color: placeholder.color,
                  thumbhash: placeholder.thumbhash, dataURL: placeholder.dataURL,
                  images: CardFile.files(in: images).map { (scale: $0.scale, file: $0.file) }, translations: translations)
    }

    /// The card as the gallery's writer reads it (``GalleryLine``), made once per card and spooled:
    /// its chunk key (``PageBoundary/key(of:)`` of its id), its size, its record in a cards chunk and
    /// its record in a titles chunk. Each record ends with the card's translations by locale, if it has
    /// any: `[color, dataURL, thumbhash, src, srcset]` and `[title]`.
    var line: Data {
        var line = Data("\(String(PageBoundary.key(of: id), radix: 16)) \(GalleryLine.number(width)) \(GalleryLine.number(height))".utf8)
        let records: [([String?], [(key: String, items: [String?])])] = [
            ([id] + look, translations.map { ($0.locale, $0.card.look) }),
            ([id, title], translations.map { ($0.locale, [$0.card.title]) }),
        ]
        for (record, keyed) in records {
            var json = JSONWriter()
            json.compactArray(record, keyed: keyed)
            line.append(GalleryLine.separator)
            line.append(contentsOf: json.bytes)
        }
        return line
    }

    /// `[color, dataURL, thumbhash, src, srcset]`: the data URL is the placeholder where there is one
    /// (painting the ThumbHash too would cost the page's main thread a decode, a canvas and a PNG per
    /// card for the same blur), so the ThumbHash is then null.
    private var look: [String?] {
        let src = images.first?.file ?? ""
        let srcset = images.map { "\($0.file) \($0.scale)x" }.joined(separator: ", ")
        return [color, dataURL, dataURL == nil ? thumbhash : nil, src, srcset]
    }
}

/// One card's ``GalleryCard/line``, read back: fields apart by tabs, which JSON text never holds raw.
struct GalleryLine {
    static let separator = UInt8(ascii: "\t")
    let chunkKey: UInt64
    /// `width height`, in points, as the page states them.
    let size: Substring
    /// The JSON array `[id, color, dataURL, thumbhash, src, srcset]`, the ThumbHash null when there is a
    /// data URL, and for a card in translated locales an object of `[color, dataURL, thumbhash, src, srcset]` by locale.
    let cardRecord: Data
    /// The JSON array `[id, title]`, and for a card in translated locales an object of `[title]` by locale.
    let titleRecord: Data

    /// Nil for bytes that are not a card's line.
    init?(_ line: Data) {
        let fields = line.split(separator: Self.separator, maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let head = String(decoding: fields[0], as: UTF8.self)
        guard let space = head.firstIndex(of: " "), let key = UInt64(head[..<space], radix: 16) else { return nil }
        chunkKey = key
        size = head[head.index(after: space)...]
        cardRecord = Data(fields[1])
        titleRecord = Data(fields[2])
    }

    /// A length without a needless fraction: `320`, `514.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// A gallery's cards, handed out one at a time as their lines (``GalleryCard/line``), so that the
/// gallery of a large build is made without holding them.
struct GalleryCards: Sendable {
    let count: Int
    /// Every scale some card has an image at.
    let scales: Set<Int>
    /// The catalog's locales, the source locale first then the others by tag, as the manifest lists a
    /// card's (`CardManifest.Card.locales`); empty for a catalog without `locales`.
    let locales: [LocaleTag]
    /// Calls `body` with each card's line, in order; throws what reading a line or `body` throws.
    let forEach: @Sendable (_ body: (Data) throws -> Void) throws -> Void

    init(count: Int, scales: Set<Int>, locales: [LocaleTag] = [],
         forEach: @escaping @Sendable (_ body: (Data) throws -> Void) throws -> Void) {
        self.count = count
        self.scales = scales
        self.locales = locales
        self.forEach = forEach
    }

    /// The cards of a manifest's `entries`.
    init(entries: [CardManifest.Entry]) {
        self.init(entries.map(GalleryCard.init(entry:)), locales: entries.first?.card.locales ?? [])
    }

    init(_ cards: [GalleryCard], locales: [LocaleTag] = []) {
        self.init(count: cards.count, scales: Set(cards.flatMap { $0.images.map(\.scale) }), locales: locales) { body in
            for card in cards {
                try body(card.line)
            }
        }
    }
}
