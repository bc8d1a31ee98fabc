import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Foundation

/// What the action cache remembers of a card's bitmap at one scale, under the image key.
struct RenderedImageRecord: CacheRecord, Equatable {
    /// Content digest of the encoded bytes in the content-addressed store.
    var blob: ContentDigest
    var bytes: Int
    var width: Int
    var height: Int

    /// The format's first bytes: anything else is not a record of this version.
    private static let tag = Array("CBIR2".utf8)

    /// The tag, 32 blob bytes, then big-endian Int64 bytes, UInt32 width and UInt32 height.
    var cacheBytes: Data {
        var encoded = Self.tag
        encoded.append(contentsOf: blob.bytes)
        encoded.appendBigEndian(Int64(bytes))
        encoded.appendBigEndian(UInt32(width))
        encoded.appendBigEndian(UInt32(height))
        return Data(encoded)
    }

    init(blob: ContentDigest, bytes: Int, width: Int, height: Int) {
        (self.blob, self.bytes, self.width, self.height) = (blob, bytes, width, height)
    }

    init?(cacheBytes: Data) {
        guard let decoded = BinaryReader.decode(cacheBytes, tag: Self.tag, { reader -> RenderedImageRecord? in
            guard let blob = reader.bytes(32).flatMap(ContentDigest.init(bytes:)),
                  let bytes = reader.integer(Int64.self),
                  let width = reader.integer(UInt32.self), let height = reader.integer(UInt32.self) else { return nil }
            return RenderedImageRecord(blob: blob, bytes: Int(bytes), width: Int(width), height: Int(height))
        }) else { return nil }
        self = decoded
    }
}

/// What rendering found out about a whole card, for the manifest; kept under the card key.
struct CardFacts: CacheRecord, Equatable {
    /// Size in points.
    var width: Double
    var height: Double
    /// The ``PlaceholderColor`` as `#RRGGBB`.
    var placeholder: String

    private static let tag = Array("CBCF1".utf8)

    /// The tag, the width and height as big-endian Float64 bit patterns, and the placeholder's UTF-8 to the end.
    var cacheBytes: Data {
        var encoded = Self.tag
        encoded.appendBigEndian(width.bitPattern)
        encoded.appendBigEndian(height.bitPattern)
        encoded.append(contentsOf: placeholder.utf8)
        return Data(encoded)
    }

    init(width: Double, height: Double, placeholder: String) {
        (self.width, self.height, self.placeholder) = (width, height, placeholder)
    }

    /// The facts of `card` with the placeholder measured on its bitmap.
    init(_ card: PreparedCard, placeholder: CardColor) {
        self.init(width: card.layout.card.width, height: card.layout.card.height, placeholder: placeholder.description)
    }

    init?(cacheBytes: Data) {
        guard let decoded = BinaryReader.decode(cacheBytes, tag: Self.tag, { reader -> CardFacts? in
            guard let width = reader.integer(UInt64.self), let height = reader.integer(UInt64.self),
                  let placeholder = reader.bytes(reader.remaining) else { return nil }
            return CardFacts(width: Double(bitPattern: width), height: Double(bitPattern: height),
                             placeholder: String(decoding: placeholder, as: UTF8.self))
        }) else { return nil }
        self = decoded
    }
}

/// The blobs an action result of a build names, whatever its type, so that garbage collection keeps
/// a blob while a record names it. A record type that names a blob must be read here.
enum ArtifactReferences {
    static func blobs(namedBy record: Data) -> [ContentDigest] {
        if let image = RenderedImageRecord(cacheBytes: record) {
            return [image.blob]
        }
        // A background's record; the digest records of a manifest or a whole build name no blob,
        // and the collector ignores a digest the store does not hold.
        return ContentDigest(cacheBytes: record).map { [$0] } ?? []
    }
}
