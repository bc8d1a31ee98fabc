import Foundation
import Vips

/// Digests of everything a card's pixels depend on, grouped the way `cardbake check` explains a change.
/// Two cards with equal inputs render to the same bytes on the same machine.
public struct CardInputs: Sendable, Hashable, Codable {
    /// The source image's bytes.
    public var image: Digest
    /// Title and description.
    public var text: Digest
    /// Every resolved style value except the list of scales, the font files' contents and the encoder settings.
    public var style: Digest
    /// The renderer's version salt and the libvips version.
    public var renderer: Digest

    /// Bump when a change to the renderer changes pixels, so every cached card is redone.
    public static let rendererSalt = "cardbake-renderer-4"

    public init(imageDigest: Digest, card: Card, fonts: ResolvedFonts) {
        image = imageDigest
        var text = Fingerprint(domain: "card-text")
        text.add("title", card.title)
        text.add("description", card.description)
        self.text = text.digest
        style = card.style.fingerprint(fonts: fonts)
        renderer = Self.rendererDigest
    }

    static let rendererDigest: Digest = {
        var renderer = Fingerprint(domain: "renderer")
        renderer.add("salt", rendererSalt)
        renderer.add("libvips", Vips.version)
        return renderer.digest
    }()

    /// The card's key, as the manifest records it: these inputs and the scales rendered.
    public func cardKey(scales: [Int]) -> Digest {
        var key = fingerprint(domain: "card")
        key.add("scales", scales.map(String.init).joined(separator: ","))
        return key.digest
    }

    /// The key of the card's bitmap at one scale.
    public func imageKey(scale: Int) -> Digest {
        var key = fingerprint(domain: "card-image")
        key.add("scale", scale)
        return key.digest
    }

    /// A group of inputs, as `check` names a change.
    public enum Group: CaseIterable, Sendable, CustomStringConvertible {
        case image, text, style, renderer

        public var description: String {
            switch self {
            case .image: "image changed"
            case .text: "title or description changed"
            case .style: "style changed (or a font file it uses)"
            case .renderer: "renderer or libvips version changed"
            }
        }
    }

    /// The groups whose digests differ from `other`'s.
    public func differences(from other: CardInputs) -> [Group] {
        Group.allCases.filter { self[$0] != other[$0] }
    }

    private subscript(group: Group) -> Digest {
        switch group {
        case .image: image
        case .text: text
        case .style: style
        case .renderer: renderer
        }
    }

    private func fingerprint(domain: String) -> Fingerprint {
        var key = Fingerprint(domain: domain)
        key.add("image", image)
        key.add("text", text)
        key.add("style", style)
        key.add("renderer", renderer)
        return key
    }
}

extension BackgroundEffect {
    /// The key of this effect applied to the image with `imageDigest`: it depends on the image, the
    /// card's size, the blur parameters and the reduced resolution, not on text or encoder.
    func key(imageDigest: Digest, textAreaHeight: Double) -> Digest {
        var key = Fingerprint(domain: "background")
        key.add("image", imageDigest)
        key.add("cardWidth", cardWidth)
        key.add("textAreaHeight", textAreaHeight)
        // The card's height follows the source's aspect and maxFeatureHeight, which the key has no other way to see.
        key.add("cardHeight", cardHeight)
        key.add("blur.radius", blur.radius)
        key.add("blur.saturation", blur.saturation)
        key.add("blur.tint", blur.tint.fingerprintValue)
        key.add("resolution", resolution)
        key.add("renderer", CardInputs.rendererDigest)
        return key.digest
    }
}
