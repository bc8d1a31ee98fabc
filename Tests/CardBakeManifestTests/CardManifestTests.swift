import CardBakeManifest
import Foundation
import Testing

/// The manifest module on its own: what an app links, with no libvips, Pango or hashing library.
@Suite("The manifest module")
struct CardManifestTests {
    /// SHA-256 of "abc" (FIPS 180-2), written out so that this module needs no hashing code.
    static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    static func digest(_ byte: UInt8) -> ContentDigest {
        ContentDigest(bytes: [UInt8](repeating: byte, count: 32))!
    }

    static let manifest = CardManifest(generator: "cardbake test", cards: [
        CardManifest.Entry(
            id: "toucan", title: "Keel-billed toucan", description: "Ramphastos sulfuratus",
            size: CardManifest.Size(width: 320, height: 512.5), key: digest(1),
            placeholder: CardManifest.Placeholder(color: "#c86414", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
                                                  dataURL: "data:image/png;base64,iVBORw0KGgo="),
            images: ["1x": CardManifest.Image(file: "cards/toucan@1x.png", width: 320, height: 513, bytes: 1000,
                                              sha256: digest(2))],
            inputs: CardInputs(image: digest(3), text: digest(4), style: digest(5), fonts: digest(7),
                              renderer: digest(6))),
    ])

    @Test("A digest's hex text round-trips in either case; its bytes are most significant first")
    func digestText() throws {
        let digest = try #require(ContentDigest(hex: Self.abc))
        #expect(digest.description == Self.abc)
        #expect(ContentDigest(hex: Self.abc.uppercased()) == digest)
        #expect(digest.bytes.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        #expect(ContentDigest(bytes: digest.bytes) == digest)
        #expect(ContentDigest(hex: String(Self.abc.dropLast())) == nil)
        #expect(Self.digest(1) < Self.digest(2))
    }

    @Test("A manifest encodes to stable bytes and decodes to the same value")
    func roundTrip() throws {
        let data = try Self.manifest.encoded()
        #expect(try Self.manifest.encoded() == data)
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(try JSONDecoder().decode(CardManifest.self, from: data) == Self.manifest)
        #expect(String(decoding: data, as: UTF8.self).contains("\"file\" : \"cards/toucan@1x.png\""))
    }

    @Test("A manifest of many cards, encoded a card at a time, has the bytes JSONEncoder gives the whole",
          arguments: [0, 1, 2, 5, 300])
    func encodedAsAWhole(cards: Int) throws {
        let entry = Self.manifest.cards[0]
        var manifest = Self.manifest
        manifest.cards = (0..<cards).map { index in
            var card = entry
            card.id = "card-\(index)"
            card.title = ["Tucán \"piquiverde\"", "a/b \\ c", "emoji 🦜", "line\nbreak", "日本語"][index % 5]
            card.images["2x"] = CardManifest.Image(file: "cards/card-\(index)@2x.png", width: 640, height: 1026,
                                                   bytes: 2000 + index, sha256: Self.digest(UInt8(index % 256)))
            return card
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let whole = try encoder.encode(manifest) + Data("\n".utf8)
        #expect(try manifest.encoded() == whole)
        // Streamed, a large manifest comes in several pieces, none of them the whole.
        var pieces: [Data] = []
        try manifest.encode { pieces.append($0) }
        #expect(pieces.reduce(Data(), +) == whole)
        #expect(cards < 300 || (pieces.count > 2 && pieces.allSatisfy { $0.count < whole.count / 2 }))
    }

    @Test("read(from:) takes only a manifest of this schema")
    func readsOnlyItsSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(CardManifest.fileName)
        try Self.manifest.encoded().write(to: file)
        #expect(CardManifest.read(from: file) == Self.manifest)
        var newer = Self.manifest
        newer.schema = CardManifest.schemaVersion + 1
        try newer.encoded().write(to: file)
        #expect(CardManifest.read(from: file) == nil)
    }

    @Test("check's groups name exactly the inputs that differ")
    func inputDifferences() {
        let inputs = Self.manifest.cards[0].inputs
        var changed = inputs
        changed.text = Self.digest(9)
        changed.renderer = Self.digest(9)
        #expect(changed.differences(from: inputs) == [.text, .renderer])
        #expect(inputs.differences(from: inputs).isEmpty)
    }
}

@Suite("Reading a manifest")
struct CardManifestReadingTests {
    @Test("A newer schema is refused with the version this reader understands, whatever its shape")
    func newerSchema() throws {
        let newer = CardManifest.schemaVersion + 1
        let data = Data(#"{"schema": \#(newer), "cards": "a shape of the future"}"#.utf8)
        let error = try #require(throws: CardManifest.ReadError.self) { try CardManifest(data: data, source: "m.json") }
        #expect(error == .unsupportedSchema(source: "m.json", found: newer, understood: CardManifest.schemaVersion))
        #expect(error.description.contains("understands schema \(CardManifest.schemaVersion)"))
    }

    @Test("A field of the wrong type is named with its path")
    func wrongField() throws {
        var json = try JSONSerialization.jsonObject(with: CardManifestTests.manifest.encoded()) as! [String: Any]
        var cards = json["cards"] as! [[String: Any]]
        cards[0]["size"] = ["width": "wide", "height": 1]
        json["cards"] = cards
        let data = try JSONSerialization.data(withJSONObject: json)
        let error = try #require(throws: CardManifest.ReadError.self) { try CardManifest(data: data, source: "m.json") }
        #expect(error.description.contains("cards[0].size.width"), "\(error)")
    }

    @Test("Bytes that are not JSON, and a missing file, are errors that name the source")
    func notJSON() throws {
        let error = try #require(throws: CardManifest.ReadError.self) { try CardManifest(data: Data("<html>".utf8), source: "m.json") }
        #expect(error.description.hasPrefix("m.json: not a cardbake manifest"))
        let missing = URL(fileURLWithPath: "/nonexistent/manifest.json")
        #expect(throws: CardManifest.ReadError.self) { try CardManifest(contentsOf: missing) }
    }
}
