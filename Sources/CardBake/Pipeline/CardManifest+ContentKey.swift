import CardBakeCache
import CardBakeManifest

extension CardManifest {
    /// A digest of everything the manifest says, cheap to compute: a build whose manifest has the
    /// content key of the file already in place (a fact kept in the action cache) neither encodes
    /// nor rewrites it, which keeps a no-op build of a large catalog fast.
    var contentKey: ContentDigest {
        // A synthesized Encodable throws nothing here.
        try! Fingerprint(domain: "manifest", encoding: self).digest
    }
}
