import CardBakeFiles
import Foundation
import Synchronization

/// The titles and descriptions of a catalog's cards in a ``SpoolFile`` instead of in memory: a
/// catalog of 10,000 cards has some 4 MB of them, which a build reads only as it plans and renders
/// each card. A card in the spool reads its texts back at each use (``Card/title``).
package final class TextSpool: Sendable {
    private let file: Mutex<SpoolFile>
    /// Named when the spool cannot be read back.
    private let folder: String

    /// Where a card's texts are: its title's bytes at `offset`, then its description's.
    package struct Place: Sendable {
        let offset: Int64
        let titleCount: UInt32
        let descriptionCount: UInt32
    }

    /// Cards whose texts go to the spool in one write.
    private static let batch = 512

    /// A spool in `folder`; nil when no file can be made there.
    package init?(in folder: URL = FileManager.default.temporaryDirectory) {
        guard let file = try? SpoolFile(in: folder) else { return nil }
        self.file = Mutex(file)
        self.folder = folder.path
    }

    /// Moves the texts of `cards` into the spool, a batch of cards per write. The cards of a batch
    /// that cannot be written keep theirs.
    package func take(_ cards: inout [Card]) {
        for start in stride(from: 0, to: cards.count, by: Self.batch) {
            let batch = start..<min(start + Self.batch, cards.count)
            var bytes: [UInt8] = []
            var places: [Place] = []
            for card in cards[batch] {
                let title = card.title.utf8, description = card.description.utf8
                places.append(Place(offset: Int64(bytes.count), titleCount: UInt32(title.count),
                                    descriptionCount: UInt32(description.count)))
                bytes += title
                bytes += description
            }
            guard let base = try? file.withLock({ try $0.append(bytes) }) else { continue }
            for (index, place) in zip(batch, places) {
                cards[index].texts = .spooled(self, Place(offset: base + place.offset, titleCount: place.titleCount,
                                                          descriptionCount: place.descriptionCount))
            }
        }
    }

    /// The title and description at `place`, read at once.
    func texts(at place: Place) -> (title: String, description: String) {
        let bytes = read(Int(place.titleCount) + Int(place.descriptionCount), at: place.offset)
        let split = bytes.startIndex + Int(place.titleCount)
        return (String(decoding: bytes[..<split], as: UTF8.self), String(decoding: bytes[split...], as: UTF8.self))
    }

    private func read(_ count: Int, at offset: Int64) -> Data {
        guard count > 0 else { return Data() }
        do {
            return try file.withLock { try $0.read(count: count, at: offset) }
        } catch {
            // A file this process wrote and still holds open: only a failing disk stops it being read.
            fatalError("cardbake cannot read back the catalog's texts from its spool file in \(folder): \(error)")
        }
    }
}
