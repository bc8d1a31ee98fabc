import CardBakeCache
import CardBakeCatalog
import CardBakeManifest

extension BackgroundEffect {
    /// The key of this effect applied to the image with `imageDigest`: it depends on the image, the
    /// card's size, the blur parameters, the reduced resolution and the size the source is decoded at
    /// (for the largest scale), not on text or encoder.
    package func key(imageDigest: ContentDigest, textAreaHeight: Double) -> ContentDigest {
        var key = Fingerprint(domain: "background")
        key.add("image", imageDigest)
        key.add("cardWidth", cardWidth)
        key.add("textAreaHeight", textAreaHeight)
        // The card's height follows the source's aspect and maxFeatureHeight, which the key has no other way to see.
        key.add("cardHeight", cardHeight)
        key.add("blur", blur)
        key.add("resolution", resolution)
        key.add("decodedFor", maxScale)
        key.add("renderer", RendererVersion.digest)
        return key.digest
    }
}
