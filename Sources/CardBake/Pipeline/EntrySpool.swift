import CardBakeCache
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization

/// The manifest entries of a build's cards, each put as soon as its card is known to be cached or
/// rendered, and kept in a ``SpoolFile`` rather than in memory until the write stage. Each entry is
/// kept in the three forms the write stage reads, so that it decodes none: its text in the manifest,
/// its figure in the gallery page, and its files. Read back by the card's position in the catalog.
final class EntrySpool: Sendable {
    private let state: Mutex<State>

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

    /// A spool for `cards` cards, in `directory`. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    init(in directory: URL, cards: Int) throws {
        state = Mutex(State(file: try SpoolFile(in: directory), places: Array(repeating: nil, count: cards)))
    }

    /// Keeps `entry` as the card's at `position`. Throws ``FileSystemError/cannotWrite(path:errno:)``.
    func put(_ entry: CardManifest.Entry, at position: Int) throws {
        let text = try CardManifest.elementText(of: entry)
        let figure = GalleryPage.figureLine(GalleryCard(entry: entry))
        let files = CardFile.encode(CardFile.files(of: entry))
        try state.withLock { state in
            let offset = try state.file.append(text + figure + files)
            state.places[position] = Place(offset: offset, text: Int32(text.count), figure: Int32(figure.count),
                                           files: Int32(files.count))
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

    /// The entry's card as a line of the gallery page (``GalleryPage/figureLine(_:)``).
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

/// One file a manifest entry lists: its scale, its path in the output folder, its bytes' digest.
struct CardFile: Sendable, Equatable {
    let scale: Int
    let file: String
    let digest: ContentDigest

    /// The files `entry` lists, smallest scale first.
    static func files(of entry: CardManifest.Entry) -> [CardFile] {
        entry.images.compactMap { name, image in
            CardManifest.scale(named: name).map { CardFile(scale: $0, file: image.file, digest: image.sha256) }
        }.sorted { $0.scale < $1.scale }
    }

    /// Each file as its scale (big-endian UInt32), its path's length (UInt32) and UTF-8, and its digest's 32 bytes.
    static func encode(_ files: [CardFile]) -> Data {
        var bytes: [UInt8] = []
        for file in files {
            bytes.appendBigEndian(UInt32(file.scale))
            bytes.appendBigEndian(UInt32(file.file.utf8.count))
            bytes.append(contentsOf: file.file.utf8)
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
                guard let scale = reader.integer(UInt32.self), let length = reader.integer(UInt32.self),
                      let path = reader.bytes(Int(length)), let digest = reader.bytes(32).flatMap(ContentDigest.init(bytes:))
                else { return nil }
                files.append(CardFile(scale: Int(scale), file: String(decoding: path, as: UTF8.self), digest: digest))
            }
            return files
        }
    }
}
