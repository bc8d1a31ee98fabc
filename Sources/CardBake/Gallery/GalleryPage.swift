import CardBakeFiles
import CardBakeManifest
import Foundation

/// The preview gallery's `index.html`: small whatever the catalog (the cards' sizes, a few bytes
/// each, and the list of chunk files), with the style sheet and the script that lays out every card
/// from those sizes and loads the chunks near the viewport (``GalleryAssets``). It works from
/// `file://` with no network; the same cards and version give the same bytes.
struct GalleryPage: Sendable {
    let count: Int
    /// Every scale some card has an image at, for the summary.
    let scales: Set<Int>
    /// The catalog's locales, the source locale first, which the page switches between; empty for a
    /// catalog without `locales`.
    let locales: [LocaleTag]
    /// The manifest's `generator`, shown in the summary.
    let generator: String
    /// What `index-version.js` holds for this page; the page reloads itself when that changes.
    let version: ContentDigest
    let sizes: GallerySizes
    /// The chunks of placeholders and files (``GalleryChunker/cards``), in card order.
    let cardChunks: [GalleryChunk.Reference]
    /// The chunks of ids and titles (``GalleryChunker/titles``), in card order.
    let titleChunks: [GalleryChunk.Reference]

    /// The id of the element holding the page's data, as JSON.
    static let dataElement = "gallery-data"

    /// The chunk files the page names, relative to the output folder: the cards' chunks, then the titles'.
    var chunkFiles: [String] {
        (cardChunks + titleChunks).map { GalleryChunk.file(named: $0.digest) }
    }

    /// The page, as UTF-8.
    var html: Data {
        Data("""
            <!DOCTYPE html>
            <html lang="\(locales.first?.description ?? "en")" dir="\(Self.direction(of: locales.first))" data-version="\(version)">
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
            <header lang="en" dir="ltr"><h1>cardbake preview</h1><p><span>\(Self.escaped(summary))</span><span>\(Self.escaped(generator))</span></p></header>
            <form id="search" role="search" autocomplete="off"><input type="search" name="q" \
            placeholder="Find a card by id or title" aria-label="Find a card by id or by words of its title" \
            spellcheck="false">\(localeSwitch)<output aria-live="polite"></output></form>
            <main></main>
            <noscript><p class="note">The preview lays out its cards with JavaScript; their bitmaps are in cards/.</p></noscript>
            <script type="application/json" id="\(Self.dataElement)">\(data)</script>
            <script>\(GalleryAssets.script)</script>
            </body>
            </html>

            """.utf8)
    }

    /// What the script reads: the card count, the sizes (``GallerySizes``), each chunk list as
    /// `[digest, cards]`, and for a catalog with `locales` each locale as `[tag, direction]`. Nothing in
    /// it needs escaping in HTML: numbers, hexadecimal digits, the VLQ alphabet and language tags.
    private var data: String {
        let table = sizes.table
        func list(_ chunks: [GalleryChunk.Reference]) -> String {
            "[" + chunks.map { "[\"\($0.digest)\",\($0.count)]" }.joined(separator: ",") + "]"
        }
        let locales = locales.isEmpty ? ""
            : ",\"locales\":[" + self.locales.map { "[\"\($0)\",\"\(Self.direction(of: $0))\"]" }.joined(separator: ",") + "]"
        return "{\"count\":\(count),\"sizes\":[\(table.joined(separator: ","))],"
            + "\"runs\":\"\(sizes.encodedRuns(table: table))\",\"folder\":\"\(GalleryChunk.folder)/\","
            + "\"cards\":\(list(cardChunks)),\"titles\":\(list(titleChunks))\(locales)}"
    }

    /// The menu of locales beside the search box, for a catalog with more than one; the script names
    /// each option in its own language.
    private var localeSwitch: String {
        guard locales.count > 1 else { return "" }
        let options = locales.map { "<option value=\"\($0)\" lang=\"\($0)\">\($0)</option>" }.joined()
        return "<select name=\"locale\" aria-label=\"Language of the cards\">\(options)</select>"
    }

    /// `rtl` for a locale written right to left, else `ltr`.
    private static func direction(of locale: LocaleTag?) -> String {
        locale?.isRightToLeft == true ? "rtl" : "ltr"
    }

    /// The chunk files the page `html` names, as ``chunkFiles`` gives them; nil when `html` is not
    /// a gallery page of this layout.
    static func chunkFiles(in html: Data) -> [String]? {
        let opening = Data("<script type=\"application/json\" id=\"\(dataElement)\">".utf8)
        guard let start = html.range(of: opening),
              let end = html.range(of: Data("</script>".utf8), in: start.upperBound..<html.endIndex),
              let data = try? JSONSerialization.jsonObject(with: html[start.upperBound..<end.lowerBound]) as? [String: Any],
              let cards = data["cards"] as? [[Any]], let titles = data["titles"] as? [[Any]] else { return nil }
        let digests = (cards + titles).map { ($0.first as? String).flatMap(ContentDigest.init(hex:)) }
        guard digests.allSatisfy({ $0 != nil }) else { return nil }
        return digests.map { GalleryChunk.file(named: $0!) }
    }

    /// `48 cards at 1x, 2x, 3x`.
    var summary: String {
        let scales = scales.sorted().map { "\($0)x" }
        let count = count.counting("card")
        return scales.isEmpty ? count : "\(count) at \(scales.joined(separator: ", "))"
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
