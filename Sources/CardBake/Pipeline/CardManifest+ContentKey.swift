import CardBakeCache
import CardBakeManifest

extension CardManifest {
    /// A digest of everything the manifest says, cheap to compute: a build whose manifest has the
    /// content key of the file already in place (a fact kept in the action cache) neither encodes
    /// nor rewrites it, which keeps a no-op build of a large catalog fast.
    var contentKey: ContentDigest {
        var key = Fingerprint(domain: "manifest", version: schema)
        key.add("generator", generator)
        key.add("count", cards.count)
        for card in cards {
            key.add("id", card.id)
            key.add("title", card.title)
            key.add("description", card.description)
            // The card key covers every input (CardInputs) and the scales.
            key.add("key", card.key)
            key.add("width", card.size.width)
            key.add("height", card.size.height)
            key.add("placeholder", card.placeholder.color)
            for (scale, image) in card.images.sorted(by: { $0.key < $1.key }) {
                key.add("scale", scale)
                key.add("file", image.file)
                key.add("pixelWidth", image.width)
                key.add("pixelHeight", image.height)
                key.add("bytes", image.bytes)
                key.add("sha256", image.sha256)
            }
        }
        return key.digest
    }
}
