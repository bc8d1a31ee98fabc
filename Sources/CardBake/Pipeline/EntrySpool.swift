import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The manifest entries of a build's cards, each put as soon as its card is known to be cached or
/// rendered, and kept in a ``SpoolFile`` as its text in the manifest rather than in memory until the
/// write stage. Read back by the card's position in the catalog.
final class EntrySpool: Sendable {
    private let state: Mutex<State>

    private struct State {
        let file: SpoolFile
        /// By catalog position: where each card's entry is, nil for one not put.
        var places: [Place?]
    }

    private struct Place {
        let offset: Int64
        let count: Int32
    }

    /// A spool for `cards` cards, in `directory`. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    init(in directory: URL, cards: Int) throws {
        state = Mutex(State(file: try SpoolFile(in: directory), places: Array(repeating: nil, count: cards)))
    }

    /// Keeps `entry` as the card's at `position`. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    func put(_ entry: CardManifest.Entry, at position: Int) throws {
        let text = try CardManifest.elementText(of: entry)
        try state.withLock { state in
            let offset = try state.file.append(text)
            state.places[position] = Place(offset: offset, count: Int32(text.count))
        }
    }

    /// Whether the card at `position` has an entry.
    func holds(_ position: Int) -> Bool {
        state.withLock { $0.places[position] != nil }
    }

    /// The text of the entry at `position` (``CardManifest/elementText(of:)``), one put before.
    /// Throws ``FileSystemError/cannotRead(path:errno:)``.
    func text(at position: Int) throws -> Data {
        try state.withLock { state in
            guard let place = state.places[position] else { preconditionFailure("no entry was put at \(position)") }
            return try state.file.read(count: Int(place.count), at: place.offset)
        }
    }

    /// The entry at `position`, one put before. Throws ``FileSystemError/cannotRead(path:errno:)``.
    func entry(at position: Int) throws -> CardManifest.Entry {
        try JSONDecoder().decode(CardManifest.Entry.self, from: text(at: position))
    }
}
