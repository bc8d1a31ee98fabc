import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// `shard.json`, beside the partial manifest of a `--shard i/N` build: what `cardbake merge` needs
/// to combine shard folders into the folder one build of the whole catalog would write, and to
/// refuse shards that do not belong together.
public struct ShardRecord: Codable, Sendable, Equatable {
    /// The file's name in a shard's output folder.
    public static let fileName = "shard.json"

    /// 1 through `count`.
    public var index: Int
    public var count: Int
    /// SHA-256 of the catalog file's bytes.
    public var catalog: ContentDigest
    /// The catalog's card ids in catalog order: the order of the merged manifest.
    public var cards: [String]
    /// ``BuildRequest/settingsDigest``: overrides, generator, manifest schema, renderer.
    public var settings: ContentDigest
    /// SHA-256 of the shard's `manifest.json`, so a manifest this record was not written with is found.
    public var manifest: ContentDigest

    var shard: Shard? { Shard(index: index, count: count) }

    /// Brings the output folder's record in line with a finished build: the record of `shard` (with
    /// the digest of the whole catalog's file, its card IDs as `cards()` gives them, and the manifest's
    /// digest) when the build was one, none otherwise. Writes only when the bytes change.
    static func update(in folder: URL, shard: Shard?, catalog: ContentDigest?, cards: () -> [String],
                       settings: ContentDigest, manifest: ContentDigest) throws {
        guard let shard, let catalog else {
            remove(from: folder)
            return
        }
        let url = folder.appendingPathComponent(fileName)
        let record = ShardRecord(index: shard.index, count: shard.count, catalog: catalog,
                                 cards: cards(), settings: settings, manifest: manifest)
        let data = try record.encoded()
        guard (try? Data(contentsOf: url)) != data else { return }
        try AtomicFileWriter.write(data, to: url)
    }

    /// Removes the folder's record, if any: the folder holds a whole catalog's cards.
    static func remove(from folder: URL) {
        unlink(folder.appendingPathComponent(fileName).fileSystemPath)
    }

    /// Stable bytes: pretty-printed, keys sorted, a final newline.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
