import CardBakeCache
import CardBakeManifest
import Foundation

/// A manifest with the bytes a build writes for it (``CardManifest/encoded()``) and their SHA-256,
/// which decides whether the file in place is replaced and names the manifest's gallery version.
struct EncodedManifest: Sendable {
    let manifest: CardManifest
    let data: Data
    let digest: ContentDigest

    init(_ manifest: CardManifest) throws {
        self.manifest = manifest
        data = try manifest.encoded()
        digest = ContentDigest.sha256(data)
    }
}
