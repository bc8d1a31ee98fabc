import CardBakeFiles
import CardBakeManifest
import Foundation

/// The preview gallery's HTML: every card at its size in points, placeholders first, bitmaps shown
/// as they come near the viewport. Everything the page needs is inline or beside it, so it works
/// from `file://` with no network; the same cards and version give the same bytes.
struct GalleryPage: Sendable {
    let cards: GalleryCards
    /// The manifest's `generator`, shown in the summary.
    let generator: String
    /// What `index-version.js` holds for this page; the page reloads itself when that changes.
    let version: ContentDigest

    init(cards: GalleryCards, generator: String, version: ContentDigest) {
        self.cards = cards
        self.generator = generator
        self.version = version
    }

    init(cards: [GalleryCard], generator: String, version: ContentDigest) {
        self.init(cards: GalleryCards(cards), generator: generator, version: version)
    }

    /// The page, as UTF-8. Throws what handing out its cards throws.
    var html: Data {
        get throws {
            var html = Data()
            try write { html.append($0) }
            return html
        }
    }

    /// ``html``'s bytes handed to `sink` a piece at a time: the head, each card, the tail. The page of
    /// 10,000 cards is some 15 MB, and a caller writing it to a file need not hold it.
    func write(to sink: (Data) throws -> Void) throws {
        let head = """
            <!DOCTYPE html>
            <html lang="en" data-version="\(version)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(Self.escaped(generator))">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; \
            style-src 'unsafe-inline'; script-src 'self' file: 'unsafe-inline'">
            <link rel="icon" href="data:,">
            <title>\(Self.escaped(summary)) · cardbake preview</title>
            <style>\(GalleryAssets.style)</style>
            </head>
            <body>
            <header><h1>cardbake preview</h1><p><span>\(Self.escaped(summary))</span><span>\(Self.escaped(generator))</span></p></header>
            <main>

            """
        let tail = """
            </main>
            <script>\(GalleryAssets.script)</script>
            </body>
            </html>

            """
        try sink(Data(head.utf8))
        try cards.forEach(sink)
        try sink(Data(tail.utf8))
    }

    /// `48 cards at 1x, 2x, 3x`.
    var summary: String {
        let scales = cards.scales.sorted().map { "\($0)x" }
        let count = cards.count.counting("card")
        return scales.isEmpty ? count : "\(count) at \(scales.joined(separator: ", "))"
    }

    /// ``figure(_:)`` as a line of the page.
    static func figureLine(_ card: GalleryCard) -> Data {
        Data((figure(card) + "\n").utf8)
    }

    /// One card: placeholder colour and data URL as its background (or, without a data URL, its
    /// ThumbHash for the script to paint), the bitmap's files for the script, an `<img>` for a
    /// browser without script, and a caption shown on hover.
    static func figure(_ card: GalleryCard) -> String {
        let width = number(card.width), height = number(card.height)
        var style = "width:\(width)px;height:\(height)px;background-color:\(card.color)"
        if let dataURL = card.dataURL {
            style += ";background-image:url(\"\(dataURL)\")"
        }
        let srcset = card.images.map { "\($0.file) \($0.scale)x" }.joined(separator: ", ")
        let src = card.images.first?.file ?? ""
        var attributes = "class=\"card\" id=\"\(escaped(card.id))\" style=\"\(escaped(style))\""
        attributes += " data-src=\"\(escaped(src))\" data-srcset=\"\(escaped(srcset))\" data-title=\"\(escaped(card.title))\""
        // The data URL is the placeholder where there is one: painting the ThumbHash too would cost
        // the page's main thread a decode, a canvas and a PNG per card for the same blur.
        if card.dataURL == nil, let thumbhash = card.thumbhash {
            attributes += " data-thumbhash=\"\(escaped(thumbhash))\""
        }
        return "<figure \(attributes) tabindex=\"0\">"
            + "<noscript><img src=\"\(escaped(src))\" srcset=\"\(escaped(srcset))\" width=\"\(width)\" "
            + "height=\"\(height)\" alt=\"\(escaped(card.title))\" loading=\"lazy\"></noscript>"
            + "<figcaption><code>\(escaped(card.id))</code><span>\(escaped(card.title))</span></figcaption></figure>"
    }

    /// A length without a needless fraction: `320`, `514.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Text safe in HTML content and in double-quoted attributes.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { entity(for: $0) != nil }) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            if let entity = entity(for: byte) {
                escaped += entity.utf8
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// The entity for a byte that HTML gives a meaning to in text or attributes; nil for any other
    /// (every byte of a multi-byte UTF-8 character is 0x80 or above).
    private static func entity(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }
}
