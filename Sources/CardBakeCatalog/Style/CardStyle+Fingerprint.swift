import CardBakeCache
import CardBakeManifest

extension CardStyle: Fingerprintable {
    /// A digest of every value that decides a card's pixels and encoding at a given scale but the
    /// fonts, which ``ResolvedFonts`` fingerprints as resolved.
    package var digest: ContentDigest {
        var key = Fingerprint(domain: "style")
        key.add("style", self)
        return key.digest
    }

    /// All but `scales` and the fonts, which a key adds as resolved (``ResolvedFonts``).
    public func fingerprint(into key: inout Fingerprint) {
        key.add("cardWidth", cardWidth)
        key.add("textAreaHeight", textAreaHeight)
        key.add("maxFeatureHeight", featureHeightLimit)
        key.add("minFeatureHeight", featureHeightFloor)
        key.add("output", output)
        key.add("blur", blur)
        key.add("title", title)
        key.add("description", description)
        key.add("border", border)
    }
}

extension OutputFormat: Fingerprintable {
    /// Only the settings the format's encoder reads, so that a setting another format uses changes no key.
    public func fingerprint(into key: inout Fingerprint) {
        key.add("format", kind.rawValue)
        if kind == .png {
            key.add("compression", pngCompression)
            key.add("pngFilter", pngFilter.rawValue)
        } else {
            // Unset is not the default's number: a JPEG whose quality is unset picks it per image.
            key.add("quality", quality.map(String.init) ?? "default")
        }
    }
}

extension BlurStyle: Fingerprintable {
    public func fingerprint(into key: inout Fingerprint) {
        key.add("radius", radius)
        key.add("saturation", saturation)
        key.add("tint", tint)
    }
}

extension TextStyle: Fingerprintable {
    /// All but the font, weight and slant as requested: a key adds the ``ResolvedFont`` instead, so a
    /// request that resolves to the same font changes no key.
    public func fingerprint(into key: inout Fingerprint) {
        key.add("size", size)
        key.add("color", color)
        key.add("shadow", shadow)
    }
}

extension ShadowStyle: Fingerprintable {
    public func fingerprint(into key: inout Fingerprint) {
        key.add("color", color)
        key.add("offsetX", offsetX)
        key.add("offsetY", offsetY)
        key.add("radius", radius)
    }
}

extension BorderStyle: Fingerprintable {
    public func fingerprint(into key: inout Fingerprint) {
        key.add("width", width)
        key.add("color", color)
    }
}

extension CardColor: Fingerprintable {
    public func fingerprint(into key: inout Fingerprint) {
        key.add("red", Int(red))
        key.add("green", Int(green))
        key.add("blue", Int(blue))
        key.add("alpha", alpha)
    }
}

extension ResolvedFont: Fingerprintable {
    /// The family, weight and slant Pango is asked for and the file's content, not its path.
    public func fingerprint(into key: inout Fingerprint) {
        key.add("family", family)
        key.add("weight", weight)
        key.add("italic", italic)
        key.add("file", digest)
    }
}

extension ResolvedFonts: Fingerprintable {
    public func fingerprint(into key: inout Fingerprint) {
        key.add("title", title)
        key.add("description", description)
    }
}
