import CardBakeCache
import CardBakeManifest
import Foundation

/// What the action cache remembers of a card's bitmap at one scale.
struct RenderedImageRecord: CacheRecord, Equatable {
    /// Content digest of the encoded bytes in the content-addressed store.
    var blob: ContentDigest
    var bytes: Int
    var width: Int
    var height: Int
    /// Facts about the whole card, the same in every scale's record.
    var card: CardFacts

    /// The format's first bytes: anything else is not a record of this version.
    private static let tag = Array("CBIR1".utf8)

    /// The tag, 32 blob bytes, then big-endian Int64 bytes, UInt32 width, UInt32 height, the card's
    /// width and height as Float64 bit patterns, and the placeholder's UTF-8 to the end.
    var cacheBytes: Data {
        var encoded = Self.tag
        encoded.append(contentsOf: blob.bytes)
        encoded.appendBigEndian(Int64(bytes))
        encoded.appendBigEndian(UInt32(width))
        encoded.appendBigEndian(UInt32(height))
        encoded.appendBigEndian(card.width.bitPattern)
        encoded.appendBigEndian(card.height.bitPattern)
        encoded.append(contentsOf: card.placeholder.utf8)
        return Data(encoded)
    }

    init(blob: ContentDigest, bytes: Int, width: Int, height: Int, card: CardFacts) {
        (self.blob, self.bytes, self.width, self.height, self.card) = (blob, bytes, width, height, card)
    }

    init?(cacheBytes: Data) {
        let decoded: RenderedImageRecord? = cacheBytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(bytes: buffer, offset: 0)
            guard reader.bytes(Self.tag.count).map({ $0.elementsEqual(Self.tag) }) == true,
                  let blob = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                  let bytes = reader.integer(Int64.self),
                  let width = reader.integer(UInt32.self), let height = reader.integer(UInt32.self),
                  let cardWidth = reader.integer(UInt64.self), let cardHeight = reader.integer(UInt64.self),
                  let placeholder = reader.bytes(reader.remaining) else { return nil }
            let card = CardFacts(width: Double(bitPattern: cardWidth), height: Double(bitPattern: cardHeight),
                                 placeholder: String(decoding: placeholder, as: UTF8.self))
            return RenderedImageRecord(blob: blob, bytes: Int(bytes), width: Int(width), height: Int(height), card: card)
        }
        guard let decoded else { return nil }
        self = decoded
    }
}

/// Properties of a card found while rendering it, needed for the manifest.
struct CardFacts: Sendable, Equatable {
    /// Size in points.
    var width: Double
    var height: Double
    /// The dominant colour as `#RRGGBB`.
    var placeholder: String
}
