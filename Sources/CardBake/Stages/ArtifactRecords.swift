import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
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

/// What rendering found out about a whole card, for the manifest; kept under the card key, so a
/// card found in the cache is not painted again to measure its placeholder.
struct CardFacts: CacheRecord, Equatable {
    /// Size in points.
    var width: Double
    var height: Double
    /// Measured by ``CardPlaceholder``.
    var placeholder: CardManifest.Placeholder

    private static let tag = Array("CBCF2".utf8)

    /// The tag, the width and height as big-endian Float64 bit patterns, then the placeholder's
    /// colour, ThumbHash and data URL, each as a big-endian UInt32 length and UTF-8.
    var cacheBytes: Data {
        var encoded = Self.tag
        encoded.appendBigEndian(width.bitPattern)
        encoded.appendBigEndian(height.bitPattern)
        for text in [placeholder.color, placeholder.thumbhash, placeholder.dataURL] {
            encoded.appendText(text)
        }
        return Data(encoded)
    }

    init(width: Double, height: Double, placeholder: CardManifest.Placeholder) {
        (self.width, self.height, self.placeholder) = (width, height, placeholder)
    }

    /// The facts of `card` with the placeholder measured on its bitmap.
    init(_ card: PreparedCard, placeholder: CardManifest.Placeholder) {
        self.init(width: card.layout.card.width, height: card.layout.card.height, placeholder: placeholder)
    }

    init?(cacheBytes: Data) {
        guard let decoded = BinaryReader.decode(cacheBytes, tag: Self.tag, { reader -> CardFacts? in
            guard let width = reader.integer(UInt64.self), let height = reader.integer(UInt64.self),
                  let color = reader.text(), let thumbhash = reader.text(), let dataURL = reader.text()
            else { return nil }
            return CardFacts(width: Double(bitPattern: width), height: Double(bitPattern: height),
                             placeholder: CardManifest.Placeholder(color: color, thumbhash: thumbhash, dataURL: dataURL))
        }) else { return nil }
        self = decoded
    }
}

/// The font files a text was drawn from and the characters no installed font draws, under the key
/// of the text, its font and size and the installed fonts (``TextCoverageMemo``).
struct TextCoverageRecord: CacheRecord, Equatable {
    /// Absolute paths, in order of first use.
    var files: [String]
    var missing: [Unicode.Scalar]

    private static let tag = Array("CBTC1".utf8)

    /// The tag; the number of files as a big-endian UInt32, then each path as a big-endian UInt32
    /// length and UTF-8; the number of missing characters, then each as a big-endian UInt32.
    var cacheBytes: Data {
        var encoded = Self.tag
        encoded.appendBigEndian(UInt32(files.count))
        for file in files {
            encoded.appendText(file)
        }
        encoded.appendBigEndian(UInt32(missing.count))
        for scalar in missing {
            encoded.appendBigEndian(scalar.value)
        }
        return Data(encoded)
    }

    init(files: [String], missing: [Unicode.Scalar]) {
        (self.files, self.missing) = (files, missing)
    }

    init(_ coverage: TextCoverage) {
        self.init(files: coverage.fonts.map(\.file.path), missing: coverage.missing)
    }

    init?(cacheBytes: Data) {
        guard let decoded = BinaryReader.decode(cacheBytes, tag: Self.tag, { reader -> TextCoverageRecord? in
            guard let files = reader.list({ $0.text() }),
                  let missing = reader.list({ $0.integer(UInt32.self).flatMap { Unicode.Scalar($0) } }) else { return nil }
            return TextCoverageRecord(files: files, missing: missing)
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
        if record.first == UInt8(ascii: "{"), let photo = PhotoRecord(cacheBytes: record) {
            return [photo.digest]
        }
        // A background's record; the digest records of a whole build or a gallery page name no blob,
        // and the collector ignores a digest the store does not hold.
        return ContentDigest(cacheBytes: record).map { [$0] } ?? []
    }
}
