import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The manifest entries of a build's cards, each put as soon as its card is known to be cached or
/// rendered, and kept in a ``SpoolFile`` rather than in memory until the write stage. Each entry is
/// kept in the forms the write stage reads, so that it decodes none: its texts in the manifest's pages,
/// its line of the gallery page (for a build that writes one), and its files. Read back by the card's
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

    /// The entry's forms, one after the other from `offset`: its ID, its card's and build record's
    /// texts, its gallery line and its files; its size is kept here.
    private struct Place {
        let offset: Int64
        let size: CardManifest.Size
        let id: UInt8
        let card: Int32
        let build: Int32
        let figure: Int32
        let files: Int32

        /// Where each form starts, from `offset`, in order, and the end of the last.
        var starts: [Int64] {
            [Int64(id), Int64(card), Int64(build), Int64(figure), Int64(files)].reduce(into: [offset]) { $0.append($0.last! + $1) }
        }
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
        let page = forms.page
        let id = Data(page.id.utf8)
        try state.withLock { state in
            let offset = try state.file.append(id + page.card + page.build + forms.figure + forms.files)
            state.places[position] = Place(offset: offset, size: page.size, id: UInt8(id.count), card: Int32(page.card.count),
                                           build: Int32(page.build.count), figure: Int32(forms.figure.count),
                                           files: Int32(forms.files.count))
        }
    }

    /// Whether the card at `position` has an entry.
    func holds(_ position: Int) -> Bool {
        state.withLock { $0.places[position] != nil }
    }

    /// The entry at `position`, one put before, as the manifest's writer takes it.
    /// Throws ``FileSystemError/cannotRead(path:errno:)``.
    func pageEntry(at position: Int) throws -> ManifestWriter.PageEntry {
        let (forms, size) = try read(at: position, forms: 0..<3)
        return ManifestWriter.PageEntry(id: String(decoding: forms[0], as: UTF8.self), size: size, card: forms[1],
                                        build: forms[2])
    }

    /// The entry's card as the gallery reads it (``GalleryCard/line``); empty for a
    /// spool that keeps none.
    func figure(at position: Int) throws -> Data {
        try read(at: position, forms: 3..<4).forms[0]
    }

    /// The files the entry at `position` lists, smallest scale first.
    func files(at position: Int) throws -> [CardFile] {
        guard let files = CardFile.decode(try read(at: position, forms: 4..<5).forms[0]) else {
            preconditionFailure("the spool gives back the bytes put")
        }
        return files
    }

    /// The entry at `position`, decoded from its texts.
    func entry(at position: Int) throws -> CardManifest.Entry {
        let page = try pageEntry(at: position)
        let decoder = JSONDecoder()
        let record = try decoder.decode(CardManifest.BuildRecord.self, from: page.build)
        return CardManifest.Entry(card: try decoder.decode(CardManifest.Card.self, from: page.card), key: record.key,
                                  inputs: record.inputs)
    }

    /// The forms `wanted` (by their order in ``Place``) of the entry at `position`, read at once, and its size.
    private func read(at position: Int, forms wanted: Range<Int>) throws -> (forms: [Data], size: CardManifest.Size) {
        try state.withLock { state in
            guard let place = state.places[position] else { preconditionFailure("no entry was put at \(position)") }
            let starts = place.starts
            let bytes = try state.file.read(count: Int(starts[wanted.upperBound] - starts[wanted.lowerBound]),
                                            at: starts[wanted.lowerBound])
            let base = bytes.startIndex - Int(starts[wanted.lowerBound])
            let forms = wanted.map { form in Data(bytes[(base + Int(starts[form]))..<(base + Int(starts[form + 1]))]) }
            return (forms, place.size)
        }
    }
}
