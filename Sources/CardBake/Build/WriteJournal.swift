import Foundation
import Glibc
import Synchronization

/// A folder's note that a build is changing it, so that the next build can finish the job if this
/// one is killed part-way (`kill -9`, a crash, a power cut).
///
/// Before its first change to the folder, a build writes `.cardbake-unfinished` there, listing the
/// files it may write or remove; it removes the note once it is done. A build that finds the note
/// knows the last one stopped part-way: it removes the temporary files of that build's atomic
/// writes (only a process holding the folder's lock writes there, and this one does), and it may
/// remove the files listed that its own manifest does not name, since a build that was killed wrote
/// them. Finding no note costs one failed `open`, and a build that changes nothing writes no note.
final class WriteJournal: Sendable {
    static let noteName = ".cardbake-unfinished"

    /// Files the note of a build that did not finish listed (relative paths); empty when the last
    /// build finished.
    let unfinished: Set<String>
    private let note: URL
    private let listing: @Sendable () -> Set<String>
    private let begun = Mutex(false)

    /// Reads the note a build that did not finish left in `folder`, if any, and then removes the
    /// temporary files it left in `areas` (subfolders of `folder`, "" for the folder itself) or,
    /// when `areas` is nil, anywhere in `folder`. `listing` gives the files to note when writing begins.
    init(folder: URL, areas: [String]?, listing: @escaping @Sendable () -> Set<String> = { [] }) {
        note = folder.appendingPathComponent(Self.noteName)
        self.listing = listing
        guard let text = try? ReadableFile(path: note.fileSystemPath).readToEnd() else {
            unfinished = []
            return
        }
        unfinished = Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
        if let areas {
            for area in areas {
                AtomicFileWriter.removeLeftovers(in: folder.appendingPathComponent(area), recursive: false)
            }
        } else {
            AtomicFileWriter.removeLeftovers(in: folder, recursive: true)
        }
    }

    /// Writes the note, listing `listing()` and the files still unfinished; only the first call writes.
    func begin() throws {
        try begun.withLock { begun in
            guard !begun else { return }
            let files = listing().union(unfinished).sorted()
            try AtomicFileWriter.write(Data(files.map { $0 + "\n" }.joined().utf8), to: note)
            begun = true
        }
    }

    /// Removes the note (the one an unfinished build left, too): the folder is as the build wants it.
    func finish() {
        unlink(note.fileSystemPath)
    }
}

extension WriteJournal {
    /// The journal of a cache folder: temporary files anywhere in it are a killed build's.
    static func cache(_ folder: URL) -> WriteJournal {
        WriteJournal(folder: folder, areas: nil)
    }

    /// The journal of an output folder for a build of `cards`: the files it may write are theirs
    /// and those the manifest in place names, which it may remove; temporary files are looked for
    /// only where cardbake writes, the folder itself and `cards/`.
    static func output(_ folder: URL, cards: [Card]) -> WriteJournal {
        WriteJournal(folder: folder, areas: ["", "cards"]) {
            let previous = Manifest.read(from: folder.appendingPathComponent("manifest.json"))?.files ?? []
            return previous.union(cards.flatMap { card in
                card.style.scales.map { OutputWriter.file(for: card, scale: $0) }
            })
        }
    }
}
