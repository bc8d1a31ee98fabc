import CardBakeManifest
import Foundation

/// A value kept in the action cache, in a compact binary form: a build of 10,000 cards reads
/// 30,000 of them, and decoding must cost next to nothing. Bytes that do not decode are a miss.
package protocol CacheRecord: Sendable {
    init?(cacheBytes: Data)
    var cacheBytes: Data { get }
}

/// What the action cache remembers of a card's background effect, and of the manifest written for
/// a build's cards: the digest of the blob (or file) that holds it.
extension ContentDigest: CacheRecord {
    package init?(cacheBytes: Data) {
        self.init(bytes: cacheBytes)
    }

    package var cacheBytes: Data { Data(bytes) }
}
