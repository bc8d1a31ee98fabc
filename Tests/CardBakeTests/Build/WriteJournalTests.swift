import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("WriteJournal")
struct WriteJournalTests {
    func note(in folder: URL) -> URL { folder.appendingPathComponent(WriteJournal.noteName) }

    @Test("The note is written once, at the first begin, listing the files, and removed by finish")
    func lifecycle() throws {
        try withTemporaryDirectory { folder in
            // Given
            let journal = WriteJournal(folder: folder, areas: [""], listing: { ["cards/b@1x.png", "cards/a@1x.png"] })
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

    @Test("After a build that did not finish: its temporary files in the areas are removed, its files recovered, its note removed")
    func recovery() throws {
        try withTemporaryDirectory { folder in
            // Given a journal begun and never finished, and temporary files in and out of the areas
            try WriteJournal(folder: folder, areas: nil, listing: { ["cards/a@1x.png", "cards/b@1x.png"] }).begin()
            let swept = ["", "cards"].map { folder.appendingPathComponent($0).appendingPathComponent(AtomicFileWriter.temporaryName()) }
            let kept = folder.appendingPathComponent("fonts/" + AtomicFileWriter.temporaryName())
            for file in swept + [kept] {
                try AtomicFileWriter.write(Data("x".utf8), to: file)
            }

            // When
            var recovered: Set<String> = []
            _ = WriteJournal(folder: folder, areas: ["", "cards"], recover: { recovered = $0 })

            // Then
            #expect(recovered == ["cards/a@1x.png", "cards/b@1x.png"])
            for file in swept {
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) left")
            }
            #expect(FileManager.default.fileExists(atPath: kept.path))
            #expect(!FileManager.default.fileExists(atPath: note(in: folder).path))
        }
    }

    @Test("A build killed while writing its note leaves the note's temporary file, which the next journal removes")
    func killedWhileWritingTheNote() throws {
        try withTemporaryDirectory { folder in
            let leftover = folder.appendingPathComponent(WriteJournal.noteTemporaryName)
            try Data("cards/a@1x.png\ncards/b".utf8).write(to: leftover)
            var recovered: Set<String>?
            _ = WriteJournal(folder: folder, areas: ["", "cards"], recover: { recovered = $0 })
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            #expect(recovered == nil)
        }
    }

    @Test("An output folder's recovery removes the files a killed build listed that the manifest in place does not name")
    func outputRecovery() throws {
        try withTemporaryDirectory { folder in
            // Given a killed build's note naming a card file of the manifest in place and one of its own,
            // and a file of the user's
            let listed = ["cards/kept@1x.png", "cards/orphan@1x.png"]
            try WriteJournal(folder: folder, areas: [""], listing: { Set(listed) }).begin()
            let digest = ContentDigest(bytes: [UInt8](repeating: 0, count: 32))!
            let inputs = CardInputs(image: digest, text: digest, style: digest, fonts: digest, renderer: digest)
            try CardManifest(generator: "test", cards: [CardManifest.Entry(
                id: "kept", title: "", description: "", size: CardManifest.Size(width: 1, height: 1), key: digest,
                placeholder: CardManifest.Placeholder(color: "#000000", thumbhash: "", dataURL: ""),
                images: ["1x": CardManifest.Image(file: listed[0], width: 1, height: 1, bytes: 1, sha256: digest)],
                inputs: inputs)]).write(into: folder)
            for file in listed + ["cards/mine.png"] {
                try AtomicFileWriter.write(Data("x".utf8), to: folder.appendingPathComponent(file))
            }
            try #require(CardManifest.read(from: folder.appendingPathComponent(CardManifest.fileName)) != nil)

            // When
            _ = WriteJournal.output(OutputFolder(directory: folder, statCache: StatCache(loadingFrom: nil)), writing: { [] })

            // Then
            let cards = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cards").path)
            #expect(cards.sorted() == ["kept@1x.png", "mine.png"])
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
