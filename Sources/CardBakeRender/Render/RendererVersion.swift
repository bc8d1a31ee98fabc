import CardBakeCache
import CardBakeManifest
import Vips

/// The identity of the renderer: part of every key of a rendered artifact.
package enum RendererVersion {
    /// Bump when a change to the renderer changes pixels, encoded bytes or facts, so every cached card is redone.
    package static let salt = "cardbake-renderer-9"

    /// ``digest(libvips:)`` of the libvips this process uses (loading it).
    package static let digest = digest(libvips: Vips.version)

    /// The salt and the libvips version.
    package static func digest(libvips version: String) -> ContentDigest {
        var renderer = Fingerprint(domain: "renderer")
        renderer.add("salt", salt)
        renderer.add("libvips", version)
        return renderer.digest
    }
}
