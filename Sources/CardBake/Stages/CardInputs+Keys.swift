import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender

extension CardInputs {
    /// The inputs of `card`, whose image has `imageDigest`, whose fonts resolved to `fonts`, and whose
    /// text is drawn from the font files `drawnFonts` (fallbacks included). The text's language, which
    /// Pango draws it in, is part of its digest for a catalog with `locales`.
    init(imageDigest: ContentDigest, card: Card, fonts: ResolvedFonts, drawnFonts: DrawnFonts) {
        var text = Fingerprint(domain: "card-text")
        text.add("title", card.title)
        text.add("description", card.description)
        if let locale = card.locale {
            text.add("locale", locale.description)
        }
        var resolvedFonts = Fingerprint(domain: "card-fonts")
        resolvedFonts.add("fonts", fonts)
        resolvedFonts.add("drawn", drawnFonts)
        self.init(image: imageDigest, text: text.digest, style: card.styleDigest, fonts: resolvedFonts.digest,
                  renderer: RendererVersion.digest)
    }

    /// The card's key, as the manifest records it: these inputs and the scales rendered.
    func cardKey(scales: [Int]) -> ContentDigest {
        var key = fingerprint(domain: "card")
        key.add("scales", scales.map(String.init).joined(separator: ","))
        return key.digest
    }

    /// The key of the card's bitmap at `scale` when its style renders `scales`: its pixels depend on the
    /// largest of them too, the size the source is decoded at (``PreparedCard``).
    func imageKey(scale: Int, of scales: [Int]) -> ContentDigest {
        var key = fingerprint(domain: "card-image")
        key.add("scale", scale)
        key.add("decodedFor", scales.max() ?? scale)
        return key.digest
    }

    private func fingerprint(domain: String) -> Fingerprint {
        // A synthesized Encodable throws nothing here.
        try! Fingerprint(domain: domain, encoding: self)
    }
}
