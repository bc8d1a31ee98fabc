import Foundation
import Glibc
import Synchronization

/// A folder's note that a build is changing it, so that the next build can clean up if this one is
/// killed part-way (`kill -9`, a crash). Nothing is flushed to disk, so a power cut is not covered.
///
/// Before its first change to the folder, a build writes `.cardbake-unfinished` there, listing the
/// files it may write or remove, and it removes the note once it is done. A build that finds the
/// note knows the last one stopped part-way: before anything else it removes the temporary files of
/// that build's atomic writes (only a process holding the folder's lock writes there, and this one
/// does), lets its owner deal with the files listed, and removes the note. Finding no note costs one
/// failed `open`, and a build that changes nothing writes no note.
package final class WriteJournal: Sendable {
    package static let noteName = ".cardbake-unfinished"
    /// The note's temporary file while it is written: a fixed name, so that it can be found after a kill.
    static let noteTemporaryName = ".cardbake-unfinished.writing"

    private let note: URL
    private let listing: @Sendable () -> Set<String>
    private let begun = Mutex(false)

    /// Cleans up after a build that left its note in `folder`, if one did: removes its temporary files
    /// in `areas` (subfolders of `folder`, "" for the folder itself; anywhere in it when nil; asked
    /// for only then), passes the files it listed to `recover`, then removes the note. `listing` gives
    /// the files this build's note will list.
    package init(folder: URL, areas: @autoclosure () -> [String]?, recover: (Set<String>) -> Void = { _ in },
         listing: @escaping @Sendable () -> Set<String> = { [] }) {
        note = folder.appendingPathComponent(Self.noteName)
        self.listing = listing
        guard let text = try? ReadableFile(path: note.fileSystemPath).readToEnd() else {
            // A build killed while writing its note changed nothing else, but left the note's temporary file.
            unlink(folder.appendingPathComponent(Self.noteTemporaryName).fileSystemPath)
            return
        }
        if let areas = areas() {
            for area in areas {
                AtomicFileWriter.removeLeftovers(in: folder.appendingPathComponent(area), recursive: false)
            }
        } else {
            AtomicFileWriter.removeLeftovers(in: folder, recursive: true)
        }
        recover(Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)))
        finish()
    }

    /// Writes the note, listing `listing()`; only the first call writes.
    package func begin() throws {
        try begun.withLock { begun in
            guard !begun else { return }
            try AtomicFileWriter.write(Data(listing().sorted().map { $0 + "\n" }.joined().utf8), to: note,
                                       temporaryName: Self.noteTemporaryName)
            begun = true
        }
    }

    /// The files the note lists, or nil when the build has changed nothing (it wrote no note).
    package var noted: Set<String>? {
        begun.withLock { $0 } ? listing() : nil
    }

    /// Removes the note: the folder is as the build wants it.
    package func finish() {
        unlink(note.fileSystemPath)
    }
}

extension WriteJournal {
    /// The journal of a cache folder: temporary files anywhere in it are a killed build's.
    package static func cache(_ folder: URL) -> WriteJournal {
        WriteJournal(folder: folder, areas: nil)
    }
}
