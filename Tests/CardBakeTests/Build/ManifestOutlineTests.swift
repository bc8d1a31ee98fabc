import Foundation
import Testing
@testable import CardBakeCache
@testable import CardBakeManifest

@Suite("The outline of a manifest in place, read a page at a time")
struct ManifestOutlineTests {
    static func digest(_ byte: UInt8) -> ContentDigest {
        ContentDigest(bytes: [UInt8](repeating: byte, count: 32))!
    }

    static func manifest(cards count: Int) -> CardManifest {
        CardManifest(generator: "cardbake test", cards: (0..<count).map { index in
            CardManifest.Entry(
                id: "card-\(index)", title: "Tucán \"piquiverde\" }", description: "日本語 ,:",
                size: CardManifest.Size(width: 320, height: 512.5), key: digest(UInt8(index % 256)),
                placeholder: CardManifest.Placeholder(color: "#c86414", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
                                                      dataURL: "data:image/png;base64,iVBORw0KGgo="),
                images: ["1x": CardManifest.Image(file: "cards/card-\(index)@1x.png", width: 320, height: 513,
                                                  bytes: 1000 + index, sha256: digest(2))],
                inputs: CardInputs(image: digest(4), text: digest(UInt8(index % 200)), style: digest(5),
                                   fonts: digest(6), renderer: digest(7)))
        })
    }

    static func outline(_ url: URL) -> CardManifest.Outline? {
        CardManifest.Outline.read(from: url, digest: ContentDigest.sha256OfData)
    }

    @Test("The outline holds each card's ID, images and inputs, and every page file", arguments: [0, 1, 300])
    func matchesTheWholeDecode(cards: Int) throws {
        try withTemporaryDirectory { folder in
            let manifest = Self.manifest(cards: cards)
            let (root, pages) = try manifest.write(into: folder)
            let outline = try #require(Self.outline(root))
            #expect(outline == CardManifest.Outline(cards: manifest.cards.map(\.outline), pages: pages))
            #expect(outline.files == manifest.files && outline.pages == pages)
        }
    }

    @Test("A manifest read refuses gives no outline: another schema, a damaged or missing page, a missing file")
    func refusesWhatIsNotAManifest() throws {
        try withTemporaryDirectory { folder in
            let (root, _) = try Self.manifest(cards: 100).write(into: folder)
            let firstPage = try JSONDecoder().decode(ManifestPaging.Root.self, from: Data(contentsOf: root)).pages[0].sha256
            #expect(Self.outline(root) != nil)
            let page = folder.appendingPathComponent(ManifestPaging.file(for: firstPage))
            let bytes = try Data(contentsOf: page)
            try (bytes.dropLast() + Data("]".utf8)).write(to: page)
            #expect(Self.outline(root) == nil)
            try FileManager.default.removeItem(at: page)
            #expect(Self.outline(root) == nil)
            try bytes.write(to: page)
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root)) as? [String: Any])
            json["schema"] = CardManifest.schemaVersion + 1
            try JSONSerialization.data(withJSONObject: json).write(to: root)
            #expect(Self.outline(root) == nil)
            #expect(Self.outline(folder.appendingPathComponent("missing.json")) == nil)
        }
    }
}
