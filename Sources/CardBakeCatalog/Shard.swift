import CardBakeCache
import CardBakeManifest
import Foundation

/// One part of a catalog split `count` ways (`--shard index/count`, 1-based as in jest and
/// Playwright). A card belongs to the shard picked by a hash of its id alone, so it stays on its
/// shard across runs, machines and edits of the rest of the catalog.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1 through `count`.
    public let index: Int
    public let count: Int

    /// The shard `index` of `count`; nil unless 1 ≤ index ≤ count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `i/N`; nil for anything else, including 0/3 and 4/3.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// The shard (1 through `count`) of the card with `id`: the first 8 bytes of the SHA-256 of the
    /// id's UTF-8, big-endian, modulo `count`, plus one.
    public static func index(ofCard id: String, count: Int) -> Int {
        let prefix = ContentDigest.sha256(Data(id.utf8)).bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(count)) + 1
    }

    /// Whether the card with `id` belongs to this shard.
    public func contains(card id: String) -> Bool {
        Self.index(ofCard: id, count: count) == index
    }
}

extension Catalog {
    /// The catalog with only the cards of `shard` (each keeps its position in the whole catalog).
    public func restricted(to shard: Shard) -> Catalog {
        var part = self
        part.cards = cards.filter { shard.contains(card: $0.id) }
        return part
    }
}
