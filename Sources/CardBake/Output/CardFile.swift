import CardBakeCache
import CardBakeManifest
import Foundation

/// One file a manifest entry lists: its scale, its path in the output folder, its bytes' digest.
struct CardFile: Sendable, Equatable {
    let scale: Int
    let file: String
    let digest: ContentDigest

    /// The files `entry` lists in its source locale, then in each translated locale by tag; each
    /// locale's smallest scale first.
    static func files(of entry: CardManifest.Entry) -> [CardFile] {
        entry.card.imagesInEveryLocale.flatMap(files(in:))
    }

    /// The files of `images` (by scale name), smallest scale first.
    static func files(in images: [String: CardManifest.Image]) -> [CardFile] {
        images.compactMap { name, image in
            CardManifest.scale(named: name).map { CardFile(scale: $0, file: image.file, digest: image.sha256) }
        }.sorted { $0.scale < $1.scale }
    }

    /// Each file as its scale (big-endian UInt32), its path's length (UInt32) and UTF-8, and its digest's 32 bytes.
    static func encode(_ files: [CardFile]) -> Data {
        var bytes: [UInt8] = []
        for file in files {
            bytes.appendBigEndian(UInt32(file.scale))
            bytes.appendText(file.file)
            bytes.append(contentsOf: file.digest.bytes)
        }
        return Data(bytes)
    }

    /// What ``encode(_:)`` wrote; nil for other bytes.
    static func decode(_ data: Data) -> [CardFile]? {
        data.withUnsafeBytes { buffer -> [CardFile]? in
            var reader = BinaryReader(bytes: buffer, offset: 0)
            var files: [CardFile] = []
            while reader.remaining > 0 {
                guard let scale = reader.integer(UInt32.self), let file = reader.text(),
                      let digest = reader.bytes(32).flatMap(ContentDigest.init(bytes:))
                else { return nil }
                files.append(CardFile(scale: Int(scale), file: file, digest: digest))
            }
            return files
        }
    }
}
