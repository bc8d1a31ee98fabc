import Foundation
import Testing
@testable import CardBakeManifest

@Suite("The outline of a manifest in place, read an entry at a time")
struct ManifestOutlineTests {
    static func digest(_ byte: UInt8) -> ContentDigest {
        ContentDigest(bytes: [UInt8](repeating: byte, count: 32))!
    }

    /// A manifest of `count` cards whose texts hold what a scanner of JSON's structure could trip on.
    static func manifest(cards count: Int) -> CardManifest {
        let texts = ["Tucán \"piquiverde\" }", "a/b \\ c ] {", "emoji 🦜 [\"", "line\nbreak\t\\\"", "日本語 ,:"]
        return CardManifest(generator: "cardbake test", cards: (0..<count).map { index in
            CardManifest.Entry(
                id: "card-\(index)", title: texts[index % 5], description: texts[(index + 1) % 5],
                size: CardManifest.Size(width: 320, height: 512.5), key: digest(UInt8(index % 256)),
                placeholder: CardManifest.Placeholder(color: "#c86414", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
                                                      dataURL: "data:image/png;base64,iVBORw0KGgo="),
                images: ["1x": CardManifest.Image(file: "cards/card-\(index)@1x.png", width: 320, height: 513,
                                                  bytes: 1000 + index, sha256: digest(2)),
                         "2x": CardManifest.Image(file: "cards/card-\(index)@2x.png", width: 640, height: 1026,
                                                  bytes: 2000 + index, sha256: digest(3))],
                inputs: CardInputs(image: digest(4), text: digest(UInt8(index % 200)), style: digest(5),
                                   fonts: digest(6), renderer: digest(7)))
        })
    }

    /// The outline of `data` handed over `piece` bytes at a time.
    func read(_ data: Data, inPiecesOf piece: Int = 7) -> CardManifest.Outline? {
        var offset = data.startIndex
        return try? CardManifest.Outline(manifestIn: {
            defer { offset = min(offset + piece, data.endIndex) }
            return data[offset..<min(offset + piece, data.endIndex)]
        })
    }

    @Test("The outline holds each card's ID, images and inputs, as the whole manifest decoded gives them",
          arguments: [0, 1, 300])
    func matchesTheWholeDecode(cards: Int) throws {
        let manifest = Self.manifest(cards: cards)
        let expected = CardManifest.Outline(cards: manifest.cards.map(\.outline))
        // As cardbake writes it, and compact with its keys in another order.
        let written = try manifest.encoded()
        let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: written))
        for data in [written, compact] {
            for piece in [1, 7, 1 << 16] {
                let outline = try #require(read(data, inPiecesOf: piece))
                #expect(outline == expected)
                #expect(outline.files == manifest.files)
            }
        }
    }

    @Test("What read(from:) refuses gives no outline: another schema, a damaged entry, a missing field, bad JSON")
    func refusesWhatIsNotAManifest() throws {
        let written = try Self.manifest(cards: 3).encoded()
        var json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(read(written) != nil)

        var newer = json
        newer["schema"] = CardManifest.schemaVersion + 1
        var damaged = json
        var cards = try #require(json["cards"] as? [[String: Any]])
        cards[2]["size"] = ["width": "wide", "height": 1]
        damaged["cards"] = cards
        var noGenerator = json
        noGenerator["generator"] = nil
        var noCards = json
        noCards["cards"] = nil
        json["cards"] = "not cards"
        for refused in [newer, damaged, noGenerator, noCards, json] {
            let data = try JSONSerialization.data(withJSONObject: refused)
            #expect(read(data) == nil, "\(String(decoding: data, as: UTF8.self).prefix(120))")
            #expect((try? CardManifest(data: data, source: "m.json")) == nil)
        }
        for bytes in [written.dropLast(40), written + Data("}".utf8), Data("<html>".utf8), Data(), Data("[]".utf8)] {
            #expect(read(Data(bytes)) == nil)
        }
    }

    @Test("read(from:) gives the outline of the file, and nil for a missing one")
    func readsAFile() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent(CardManifest.fileName)
            let manifest = Self.manifest(cards: 2)
            try manifest.encoded().write(to: file)
            #expect(CardManifest.Outline.read(from: file) == CardManifest.Outline(cards: manifest.cards.map(\.outline)))
            #expect(CardManifest.Outline.read(from: folder.appendingPathComponent("missing.json")) == nil)
        }
    }
}
