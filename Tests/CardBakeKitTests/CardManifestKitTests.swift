import CardBakeKit
import Foundation
import Testing

@Suite("Reading a manifest in an app")
struct CardManifestKitTests {
    static func image(_ scale: Int, data: Data = Data()) -> CardManifest.Image {
        CardManifest.Image(file: "cards/toucan@\(scale)x.png", width: 320 * scale, height: 513 * scale,
                           bytes: data.count, sha256: PortableSHA256.hash(data))
    }

    static func entry(scales: [Int]) -> CardManifest.Card {
        CardManifest.Card(
            id: "toucan", title: "Toucan", description: "", size: CardManifest.Size(width: 320, height: 513),
            placeholder: CardManifest.Placeholder(color: "#C86414", thumbhash: "IyYGTAocVXA5t4VXaGhQVsbGgA==",
                                                  dataURL: "data:image/png;base64,"),
            images: Dictionary(uniqueKeysWithValues: scales.map { ("\($0)x", image($0)) }))
    }

    @Test("A screen gets the smallest scale at or above its own, else the largest")
    func screenScale() {
        let card = Self.entry(scales: [1, 2, 3])
        #expect(card.scales == [1, 2, 3])
        let chosen: [Double: String] = [0.5: "1x", 1: "1x", 1.5: "2x", 2: "2x", 2.608: "3x", 3: "3x", 4: "3x"]
        for (screen, scale) in chosen {
            #expect(card.image(forScreenScale: screen)?.file == "cards/toucan@\(scale).png", "screen \(screen)")
        }
        #expect(Self.entry(scales: [2, 3]).image(forScreenScale: 1)?.file == "cards/toucan@2x.png")
        #expect(Self.entry(scales: []).image(forScreenScale: 2) == nil)
    }

    @Test("The placeholder's ThumbHash decodes; text that is not one is nil")
    func placeholder() {
        var placeholder = Self.entry(scales: [1]).placeholder
        #expect(placeholder.decodedThumbHash?.approximateAspectRatio == 4.0 / 7.0)
        placeholder.thumbhash = "#C86414"
        #expect(placeholder.decodedThumbHash == nil)
    }

    @Test("A file is verified against its size and digest; the error names the file and what differs")
    func verification() throws {
        let data = Data("the card's bytes".utf8)
        let image = Self.image(2, data: data)
        try image.verify(data)
        var changed = data
        changed[0] ^= 1
        #expect(throws: CardManifest.VerificationError.wrongDigest(file: image.file, expected: image.sha256,
                                                                   found: PortableSHA256.hash(changed))) {
            try image.verify(changed)
        }
        #expect(throws: CardManifest.VerificationError.wrongSize(file: image.file, expected: data.count, found: 3)) {
            try image.verify(data.prefix(3))
        }
        do {
            try image.verify(changed)
        } catch {
            #expect(error.description.hasPrefix("cards/toucan@2x.png: the manifest's sha256 is \(image.sha256)"))
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cards"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CardManifest.VerificationError.self) { try image.verifyFile(in: folder) }
        try data.write(to: folder.appendingPathComponent(image.file))
        try image.verifyFile(in: folder)
    }

    @Test("A manifest of the previous schema is refused, saying which schema this reader understands")
    func olderSchema() throws {
        let older = Data(##"{"schema": 3, "generator": "cardbake 0.1.0", "cards": [{"id": "toucan", "placeholder": {"color": "#C86414"}}]}"##.utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("manifest.json")
        try older.write(to: file)
        #expect(throws: CardManifest.ReadError.unsupportedSchema(source: file.path, found: 3, understood: 4)) {
            try ManifestReader(contentsOf: file)
        }
    }
}
