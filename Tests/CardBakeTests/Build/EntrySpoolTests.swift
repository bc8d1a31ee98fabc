import Foundation
@testable import CardBake
import CardBakeManifest
import Testing

/// The spool the build keeps manifest entries in between their stage and the write stage.
@Suite("Entry spool")
struct EntrySpoolTests {
    static func entry(_ id: String, byte: UInt8) -> CardManifest.Entry {
        let digest = ContentDigest(bytes: [UInt8](repeating: byte, count: 32))!
        return CardManifest.Entry(
            id: id, title: "Title \(id) \u{1F680}", description: "A \"quoted\" / slashed description of \(id)",
            size: CardManifest.Size(width: 320, height: 212.5), key: digest,
            placeholder: CardManifest.Placeholder(color: "#102030", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
                                                  dataURL: "data:image/webp;base64,UklGRg=="),
            images: ["1x": CardManifest.Image(file: "cards/\(id)@1x.png", width: 320, height: 213, bytes: 1000 + Int(byte), sha256: digest),
                     "2x": CardManifest.Image(file: "cards/\(id)@2x.png", width: 640, height: 425, bytes: 4000, sha256: digest)],
            inputs: CardInputs(image: digest, text: digest, style: digest, fonts: digest, renderer: digest))
    }

    @Test("Entries put in any order come back by position, as manifest page texts, gallery line and files; a position never put holds none")
    func roundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = try EntrySpool(in: folder, cards: 5, figures: true)
        let entries = [4, 0, 2, 3].map { (position: $0, entry: Self.entry("card-\($0)", byte: UInt8($0))) }
        for (position, entry) in entries {
            try spool.put(entry, at: position)
        }
        #expect((0..<5).map(spool.holds) == [true, false, true, true, true])
        for (position, entry) in entries {
            #expect(try spool.entry(at: position) == entry)
            #expect(try spool.pageEntry(at: position) == entry.pageEntry)
            #expect(try spool.figure(at: position) == GalleryCard(entry: entry).line)
            let files = try spool.files(at: position)
            #expect(files.map(\.scale) == [1, 2])
            #expect(files.map(\.file) == ["cards/\(entry.id)@1x.png", "cards/\(entry.id)@2x.png"])
            #expect(files.allSatisfy { $0.digest == entry.key })
        }
        // Its name is gone at once: nothing is left in the folder, whatever becomes of the process.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("With a memo of the build before, each spool gives back the forms of the entries put, changed or not, with gallery lines or without")
    func memo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let memo = RebuildMemo()
        let first = [Self.entry("card-0", byte: 0), Self.entry("card-1", byte: 1)]
        var second = first
        second[1].title = "Changed"
        second[0].images["1x"]?.bytes += 1
        for (entries, figures) in [(first, true), (second, true), (second, false), (second, true), (first, true)] {
            memo.startBuild()
            let spool = try EntrySpool(in: folder, cards: entries.count, figures: figures, memo: memo.spooledForms)
            for (position, entry) in entries.enumerated() {
                try spool.put(entry, at: position)
            }
            for (position, entry) in entries.enumerated() {
                #expect(try spool.pageEntry(at: position) == entry.pageEntry)
                #expect(try spool.figure(at: position) == (figures ? GalleryCard(entry: entry).line : Data()))
                #expect(try spool.files(at: position) == CardFile.files(of: entry))
            }
        }
    }

    @Test("A manifest written from spooled entries has the files of the manifest of those entries", arguments: [0, 1, 2, 40])
    func manifestFromSpool(count: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries = (0..<count).map { Self.entry("card-\($0)", byte: UInt8($0)) }
        let spool = try EntrySpool(in: folder, cards: count, figures: false)
        for (position, entry) in entries.enumerated() {
            try spool.put(entry, at: position)
        }
        var streamedPages: [Data] = []
        var writer = ManifestWriter(generator: "cardbake test") { streamedPages.append($0); return ContentDigest.sha256($0) }
        for position in 0..<count {
            try writer.add(spool.pageEntry(at: position))
        }
        let streamed = try writer.finish()
        var pages: [Data] = []
        let whole = try CardManifest(generator: "cardbake test", cards: entries).written { pages.append($0); return ContentDigest.sha256($0) }
        #expect(streamed == whole && streamedPages == pages)
    }
}
