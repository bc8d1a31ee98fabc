import CardBakeCache
import CardBakeManifest
import Vips

/// The identity of the renderer: part of every key of a rendered artifact.
package enum RendererVersion {
    /// Bump when a change to the renderer changes pixels, encoded bytes or facts, so every cached card is redone.
    package static let salt = "cardbake-renderer-11"

    /// This process's: the salt and the versions of the libraries it renders and encodes with.
    package static let digest = digest(salt: salt, libraries: .linked)

    /// The salt and each library's version as a field of its own, so a change of any of them changes the digest.
    package static func digest(salt: String, libraries: LibraryVersions) -> ContentDigest {
        var renderer = Fingerprint(domain: "renderer")
        renderer.add("salt", salt)
        renderer.add("libvips", libraries.libvips)
        renderer.add("libjpeg-turbo", libraries.libjpegTurbo)
        renderer.add("libdeflate", libraries.libdeflate)
        return renderer.digest
    }
}
