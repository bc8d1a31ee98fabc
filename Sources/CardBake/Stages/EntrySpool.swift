import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The manifest entries of a build's cards, each put as soon as its card is known to be cached or
/// rendered, and kept in a ``SpoolFile`` rather than in memory until the write stage. Each entry is
/// kept in the forms the write stage reads, so that it decodes none: its text in the manifest, its
/// line of the gallery page (for a build that writes one), and its files. Read back by the card's
/// position in the catalog.
final class EntrySpool: Sendable {
    private let state: Mutex<State>
    /// Whether each entry's gallery line is kept.
    private let keepsFigures: Bool
    private let memo: CardMemo<SpooledForms.Kept>?

    private struct State {
        let file: SpoolFile
        /// By catalog position: where each card's entry is, nil for one not put.
        var places: [Place?]
    }

    /// The entry's three forms, one after the other from `offset`.
    private struct Place {
        let offset: Int64
        let text: Int32
        let figure: Int32
        let files: Int32
    }

    /// A spool for `cards` cards, in `directory`, keeping their gallery lines when `figures`; with
    /// `memo`, an entry the build before spooled unchanged is not encoded again.
    /// Throws ``FileSystemError/cannotWrite(path:errno:)``.
    init(in directory: URL, cards: Int, figures: Bool, memo: CardMemo<SpooledForms.Kept>? = nil) throws {
        state = Mutex(State(file: try SpoolFile(in: directory), places: Array(repeating: nil, count: cards)))
        keepsFigures = figures
        self.memo = memo
    }

    /// Keeps `entry` as the card's at `position`. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    func put(_ entry: CardManifest.Entry, at position: Int) throws {
        let forms = try SpooledForms.of(entry, figures: keepsFigures, memo: memo)
        try state.withLock { state in
            let offset = try state.file.append(forms.text + forms.figure + forms.files)
            state.places[position] = Place(offset: offset, text: Int32(forms.text.count),
                                           figure: Int32(forms.figure.count), files: Int32(forms.files.count))
        }
    }

    /// Whether the card at `position` has an entry.
    func holds(_ position: Int) -> Bool {
        state.withLock { $0.places[position] != nil }
    }

    /// The text of the entry at `position` (``CardManifest/elementText(of:)``), one put before.
    /// Throws ``FileSystemError/cannotRead(path:errno:)``.
    func text(at position: Int) throws -> Data {
        try read(at: position) { place in (place.offset, place.text) }
    }

    /// The entry's card as the gallery reads it (``GalleryCard/line``); empty for a
    /// spool that keeps none.
    func figure(at position: Int) throws -> Data {
        try read(at: position) { place in (place.offset + Int64(place.text), place.figure) }
    }

    /// The files the entry at `position` lists, smallest scale first.
    func files(at position: Int) throws -> [CardFile] {
        let bytes = try read(at: position) { place in (place.offset + Int64(place.text) + Int64(place.figure), place.files) }
        guard let files = CardFile.decode(bytes) else { preconditionFailure("the spool gives back the bytes put") }
        return files
    }

    /// The entry at `position`, decoded from its text.
    func entry(at position: Int) throws -> CardManifest.Entry {
        try JSONDecoder().decode(CardManifest.Entry.self, from: text(at: position))
    }

    private func read(at position: Int, _ range: (Place) -> (offset: Int64, count: Int32)) throws -> Data {
        try state.withLock { state in
            guard let place = state.places[position] else { preconditionFailure("no entry was put at \(position)") }
            let (offset, count) = range(place)
            return try state.file.read(count: Int(count), at: offset)
        }
    }
}
