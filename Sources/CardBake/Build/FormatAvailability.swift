import CardBakeCatalog
import CardBakeFiles
import CardBakeRender
import Vips

/// A format the catalog asks for that the installed libvips cannot write; found before anything renders.
public struct UnavailableFormat: Error, Sendable, CustomStringConvertible {
    public let catalog: String
    public let format: OutputFormat.Kind
    /// The first card (in catalog order) in this format, and how many others are.
    public let card: String
    public let others: Int
    /// libvips' reason, from encoding a small image.
    public let reason: String

    public var description: String {
        let more = others == 0 ? "" : " and \(others.counting("other card"))"
        return "\(catalog): card \"\(card)\"\(more) \(others == 0 ? "asks" : "ask") for format \"\(format.rawValue)\","
            + " which this libvips (\(Vips.version)) cannot write (\(reason)); install libvips' HEIF module with libheif"
            + " and its \(format == .avif ? "aom" : "x265") encoder (Debian: libvips42, libheif1,"
            + " \(format == .avif ? "libaom3" : "libx265-199")), or choose png, jpeg or webp (style.format or --format)."
    }
}

extension Catalog {
    /// Throws ``UnavailableFormat`` for the first format the cards use that libvips cannot write. Only
    /// formats that need an optional codec are tried, so a catalog of PNG, JPEG or WebP does not start libvips.
    package func checkFormatsAvailable() throws(UnavailableFormat) {
        var seen: Set<OutputFormat.Kind> = []
        for card in cards where seen.insert(card.style.output.kind).inserted {
            let encoder = card.style.output.encoder
            guard encoder.needsOptionalCodec, let reason = encoder.unavailability() else { continue }
            let kind = card.style.output.kind
            throw UnavailableFormat(catalog: file.path, format: kind, card: card.id,
                                    others: cards.count { $0.style.output.kind == kind } - 1, reason: reason)
        }
    }
}
