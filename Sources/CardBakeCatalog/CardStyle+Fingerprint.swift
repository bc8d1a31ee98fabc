import CardBakeCache
import CardBakeManifest

extension CardStyle {
    /// A digest of every value that decides a card's pixels and encoding at a given scale (all but
    /// `scales`), with each font's resolved family and file content in place of its name.
    package func fingerprint(fonts: ResolvedFonts) -> ContentDigest {
        var key = Fingerprint(domain: "style")
        key.add("cardWidth", cardWidth)
        key.add("textAreaHeight", textAreaHeight)
        key.add("maxFeatureHeight", featureHeightLimit)
        key.add("format", output.kind.rawValue)
        key.add("quality", output.quality)
        key.add("compression", output.pngCompression)
        key.add("pngFilter", output.pngFilter.rawValue)
        key.add("blur.radius", blur.radius)
        key.add("blur.saturation", blur.saturation)
        key.add("blur.tint", blur.tint.fingerprintValue)
        title.add(to: &key, as: "title", font: fonts.title)
        description.add(to: &key, as: "description", font: fonts.description)
        key.add("border.width", border.width)
        key.add("border.color", border.color.fingerprintValue)
        return key.digest
    }
}

extension TextStyle {
    package func add(to key: inout Fingerprint, as name: String, font: ResolvedFont) {
        key.add("\(name).family", font.family)
        key.add("\(name).fontFile", font.digest)
        key.add("\(name).size", size)
        key.add("\(name).color", color.fingerprintValue)
        if let shadow {
            key.add("\(name).shadow.color", shadow.color.fingerprintValue)
            key.add("\(name).shadow.offsetX", shadow.offsetX)
            key.add("\(name).shadow.offsetY", shadow.offsetY)
            key.add("\(name).shadow.radius", shadow.radius)
        } else {
            key.add("\(name).shadow", String?.none)
        }
    }
}

extension CardColor {
    /// Exact text for keys: the 8-bit channels and the alpha as a full-precision number.
    package var fingerprintValue: String { "\(red),\(green),\(blue),\(alpha)" }
}
