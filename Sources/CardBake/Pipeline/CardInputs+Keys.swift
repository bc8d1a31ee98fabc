import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender

extension CardInputs {
    /// The inputs of `card`, whose image has `imageDigest` and whose fonts resolved to `fonts`.
    init(imageDigest: ContentDigest, card: Card, fonts: ResolvedFonts) {
        var text = Fingerprint(domain: "card-text")
        text.add("title", card.title)
        text.add("description", card.description)
        var resolvedFonts = Fingerprint(domain: "card-fonts")
        resolvedFonts.add("fonts", fonts)
        self.init(image: imageDigest, text: text.digest, style: card.style.digest, fonts: resolvedFonts.digest,
                  renderer: RendererVersion.digest)
    }

    /// The card's key, as the manifest records it: these inputs and the scales rendered.
    func cardKey(scales: [Int]) -> ContentDigest {
        var key = fingerprint(domain: "card")
        key.add("scales", scales.map(String.init).joined(separator: ","))
        return key.digest
    }

    /// The key of the card's bitmap at one scale.
    func imageKey(scale: Int) -> ContentDigest {
        var key = fingerprint(domain: "card-image")
        key.add("scale", scale)
        return key.digest
    }

    private func fingerprint(domain: String) -> Fingerprint {
        // A synthesized Encodable throws nothing here.
        try! Fingerprint(domain: domain, encoding: self)
    }
}
