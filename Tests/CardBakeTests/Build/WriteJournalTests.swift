import Foundation
import Testing
@testable import CardBake

@Suite("WriteJournal")
struct WriteJournalTests {
    func note(in folder: URL) -> URL { folder.appendingPathComponent(WriteJournal.noteName) }

    @Test("The note is written once, at the first begin, listing the files, and removed by finish")
    func lifecycle() throws {
        try withTemporaryDirectory { folder in
            // Given
            let journal = WriteJournal(folder: folder, areas: [""]) { ["cards/b@1x.png", "cards/a@1x.png"] }
            #expect(!FileManager.default.fileExists(atPath: note(in: folder).path), "written before begin")

            // When
            try journal.begin()
            let written = try String(contentsOf: note(in: folder), encoding: .utf8)
            try Data("changed".utf8).write(to: note(in: folder))
            try journal.begin()

            // Then
            #expect(written == "cards/a@1x.png\ncards/b@1x.png\n")
            #expect(try String(contentsOf: note(in: folder), encoding: .utf8) == "changed")
            journal.finish()
            #expect(!FileManager.default.fileExists(atPath: note(in: folder).path))
        }
    }

    @Test("After a build that did not finish: its files are reported, its temporary files in the areas removed, others kept")
    func recovery() throws {
        try withTemporaryDirectory { folder in
            // Given a journal begun and never finished, and temporary files in and out of the areas
            try WriteJournal(folder: folder, areas: nil) { ["cards/a@1x.png"] }.begin()
            let swept = ["", "cards"].map { folder.appendingPathComponent($0).appendingPathComponent(AtomicFileWriter.temporaryName()) }
            let kept = folder.appendingPathComponent("fonts/" + AtomicFileWriter.temporaryName())
            for file in swept + [kept] {
                try AtomicFileWriter.write(Data("x".utf8), to: file)
            }

            // When
            let journal = WriteJournal(folder: folder, areas: ["", "cards"]) { ["cards/c@1x.png"] }

            // Then
            #expect(journal.unfinished == ["cards/a@1x.png"])
            for file in swept {
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) left")
            }
            #expect(FileManager.default.fileExists(atPath: kept.path))

            // and its own note keeps the unfinished files listed until it finishes
            try journal.begin()
            #expect(try String(contentsOf: note(in: folder), encoding: .utf8) == "cards/a@1x.png\ncards/c@1x.png\n")
        }
    }

    @Test("Temporary file names are recognised; other names are not")
    func temporaryNames() {
        #expect(AtomicFileWriter.isTemporaryName(AtomicFileWriter.temporaryName()))
        for name in [".tmp-", ".tmp-12-", ".tmp-x-1f", "tmp-12-1f", ".tmp-12-1f.png", "card@1x.png"] {
            #expect(!AtomicFileWriter.isTemporaryName(name), "\(name)")
        }
    }
}
