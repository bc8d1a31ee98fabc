import CardBakeCache
import CardBakeManifest
import Vips

/// The identity of the renderer: part of every key of a rendered artifact.
package enum RendererVersion {
    /// Bump when a change to the renderer changes pixels, encoded bytes or facts, so every cached card is redone.
    package static let salt = "cardbake-renderer-10"

    /// The salt and the libvips version.
    package static let digest: ContentDigest = {
        var renderer = Fingerprint(domain: "renderer")
        renderer.add("salt", salt)
        renderer.add("libvips", Vips.version)
        return renderer.digest
    }()
}
