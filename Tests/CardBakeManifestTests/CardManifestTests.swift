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

    static let manifest = CardManifest(generator: "cardbake test", cards: [entry(id: "toucan", index: 0)])

    /// A card whose texts hold what a writer of JSON could trip on; a few sizes, so sizes make runs.
    static func entry(id: String, index: Int) -> CardManifest.Entry {
        let texts = ["Keel-billed toucan", "Tucán \"piquiverde\" }", "a/b \\ c ] {", "emoji 🦜 [\"", "line\nbreak\t\\\"", "日本語 ,:"]
        return CardManifest.Entry(
            id: id, title: texts[index % 6], description: texts[(index + 1) % 6],
            size: CardManifest.Size(width: 320, height: index % 97 < 90 ? 512.5 : 400), key: digest(UInt8(index % 256)),
            placeholder: CardManifest.Placeholder(color: "#c86414", thumbhash: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
                                                  dataURL: "data:image/png;base64,iVBORw0KGgo="),
            images: ["1x": CardManifest.Image(file: "cards/\(id)@1x.png", width: 320, height: 513, bytes: 1000 + index,
                                              sha256: digest(2)),
                     "2x": CardManifest.Image(file: "cards/\(id)@2x.png", width: 640, height: 1026, bytes: 2000 + index,
                                              sha256: digest(3))],
            inputs: CardInputs(image: digest(3), text: digest(UInt8(index % 200)), style: digest(5), fonts: digest(7),
                               renderer: digest(6)))
    }

    static func manifest(cards count: Int) -> CardManifest {
        CardManifest(generator: "cardbake test", cards: (0..<count).map { entry(id: "card-\($0)", index: $0) })
    }

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

    @Test("A manifest writes to stable pages and reads back whole as the same value", arguments: [0, 1, 32, 33, 700])
    func roundTrip(cards: Int) throws {
        let manifest = Self.manifest(cards: cards)
        let written = try WrittenManifest(manifest)
        let again = try WrittenManifest(manifest)
        #expect(written.root == again.root && written.pages == again.pages)
        #expect(written.root.last == UInt8(ascii: "\n"))
        #expect(try CardManifest(reading: written.reader()) == manifest)
        let root = try written.reader().root
        #expect(root.count == cards && root.head.count == min(cards, ManifestPaging.headCount))
        #expect(root.head.map(\.id) == manifest.cards.prefix(ManifestPaging.headCount).map(\.id))
        #expect(root.pages.allSatisfy { (1...ManifestPaging.cards.maximumCount).contains($0.count) })
        // The sizes as runs: one per change of size, not one per card.
        let changes = zip(manifest.cards, manifest.cards.dropFirst()).filter { $0.size != $1.size }.count
        #expect(root.sizes.count == (cards == 0 ? 0 : changes + 1))
        // Nothing the build keeps is in the app's pages: no key, no inputs.
        let appText = String(decoding: written.root, as: UTF8.self)
            + root.pages.map { String(decoding: written.pages[ManifestPaging.file(for: $0.sha256)]!, as: UTF8.self) }.joined()
        #expect(!appText.contains("\"key\"") && !appText.contains("\"inputs\""))
    }

    @Test("The first screen comes from the root alone; any card by position reads one page, by ID one ID page more")
    func readsLazily() throws {
        let manifest = Self.manifest(cards: 2_000)
        let written = try WrittenManifest(manifest)
        let reader = try written.reader()
        #expect(reader.count == 2_000)
        #expect(try reader.cards(in: 0..<ManifestPaging.headCount).map(\.id) == manifest.cards.prefix(ManifestPaging.headCount).map(\.id))
        #expect(written.takeLoads().isEmpty)
        for position in [40, 999, 1_999] {
            #expect(try reader.card(at: position) == manifest.cards[position].card)
            #expect(written.takeLoads().count <= 1)
        }
        for position in Array(stride(from: 0, to: 2_000, by: 37)) {
            let fresh = try written.reader()
            #expect(try fresh.card(id: "card-\(position)") == manifest.cards[position].card)
            #expect(written.takeLoads().count <= 2)
            #expect(fresh.size(at: position) == manifest.cards[position].size)
        }
        #expect(try reader.card(id: "card-2000") == nil && reader.card(id: "") == nil && reader.card(id: "zzz") == nil)
        #expect(try reader.cards(in: 0..<2_000) == manifest.cards.map(\.card))
    }

    @Test("Editing a card's title writes one card page and one build page; inserting or removing a card, a few")
    func editsStayLocal() throws {
        let manifest = Self.manifest(cards: 3_000)
        let before = try WrittenManifest(manifest)
        var edited = manifest
        edited.cards[1_500].title = "A new title"
        edited.cards[1_500].inputs.text = Self.digest(250)
        // A card page, a build page and the build index that lists it.
        #expect(try WrittenManifest(edited).pagesNotIn(before).count == 3)

        // An ID that does not start a page of its own: it joins its neighbour's page.
        let id = try #require((0...).lazy.map { "new-\($0)" }.first { !ManifestPaging.cards.starts($0, after: 1) })
        var inserted = manifest
        inserted.cards.insert(Self.entry(id: id, index: 7), at: 1_200)
        let afterInsertion = try WrittenManifest(inserted)
        // A card page, a build page, the build index and one ID page.
        #expect(afterInsertion.pagesNotIn(before).count == 4, "\(afterInsertion.pagesNotIn(before))")
        var removed = manifest
        let removable = try #require((2_100...).first { !ManifestPaging.cards.starts(manifest.cards[$0].id, after: 1) })
        removed.cards.remove(at: removable)
        let afterRemoval = try WrittenManifest(removed)
        #expect(afterRemoval.pagesNotIn(before).count == 4, "\(afterRemoval.pagesNotIn(before))")
    }

    @Test("At 100,000 cards the root, which holds the first screen, stays within 256 KiB")
    func firstScreenBudget() throws {
        let sample = Self.entry(id: "IDENTIFIER", index: 3)
        let card = String(decoding: try ManifestPaging.encoded(sample.card), as: UTF8.self)
        let build = String(decoding: try ManifestPaging.encoded(sample.buildRecord), as: UTF8.self)
        // Pages named by a counter, not hashed: only their sizes are checked here.
        var pages: [ContentDigest: Data] = [:]
        var writer = ManifestWriter(generator: "cardbake test") { bytes in
            let digest = ContentDigest(bytes: withUnsafeBytes(of: UInt64(pages.count).bigEndian, Array.init) + [UInt8](repeating: 0, count: 24))!
            pages[digest] = bytes
            return digest
        }
        for index in 0..<100_000 {
            let id = "card-\(index)"
            try writer.add(ManifestWriter.PageEntry(
                id: id, size: sample.size, card: Data(card.replacingOccurrences(of: "IDENTIFIER", with: id).utf8),
                build: Data(build.replacingOccurrences(of: "IDENTIFIER", with: id).utf8)))
        }
        let root = try writer.finish()
        let decoded = try JSONDecoder().decode(ManifestPaging.Root.self, from: root)
        #expect(decoded.count == 100_000)
        #expect(decoded.head.count == ManifestPaging.headCount)
        #expect(root.count <= 256 * 1024, "root \(root.count) bytes")
        #expect(decoded.pages.allSatisfy { $0.count <= ManifestPaging.cards.maximumCount })
        #expect(decoded.pages.count > 100_000 / 200 && decoded.pages.count < 100_000 / 80, "\(decoded.pages.count) pages")
    }

    @Test("read(from:) reads the root and its pages from a folder, and only a manifest of this schema")
    func readsOnlyItsSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(ManifestPaging.folder), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try WrittenManifest(Self.manifest(cards: 100))
        for (file, bytes) in written.pages {
            try bytes.write(to: folder.appendingPathComponent(file))
        }
        let file = folder.appendingPathComponent(CardManifest.fileName)
        try written.root.write(to: file)
        #expect(CardManifest.read(from: file) == Self.manifest(cards: 100))
        var json = try written.rootJSON
        json["schema"] = CardManifest.schemaVersion + 1
        try JSONSerialization.data(withJSONObject: json).write(to: file)
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
    static func read(_ root: Data, pages: [String: Data] = [:]) throws(CardManifest.ReadError) -> CardManifest {
        try CardManifest(reading: WrittenManifest(root: root, pages: pages).reader(source: "m.json"))
    }

    @Test("Another schema is refused with the version found and the one this reader understands, whatever its shape",
          arguments: [3, CardManifest.schemaVersion + 1])
    func otherSchema(found: Int) throws {
        let data = Data(#"{"schema": \#(found), "cards": "another shape"}"#.utf8)
        let error = try #require(throws: CardManifest.ReadError.self) { try Self.read(data) }
        #expect(error == .unsupportedSchema(source: "m.json", found: found, understood: CardManifest.schemaVersion))
        #expect(error.description.contains("schema \(found) is not supported; this reader understands schema \(CardManifest.schemaVersion)"))
    }

    @Test("A field of the wrong type is named with its path, in the root or in the page that holds it")
    func wrongField() throws {
        let written = try WrittenManifest(CardManifestTests.manifest(cards: 40))
        var json = try written.rootJSON
        var head = json["head"] as! [[String: Any]]
        head[0]["size"] = ["width": "wide", "height": 1]
        json["head"] = head
        let error = try #require(throws: CardManifest.ReadError.self) {
            try Self.read(JSONSerialization.data(withJSONObject: json), pages: written.pages)
        }
        #expect(error.description.contains("head[0].size.width"), "\(error)")

        // A page whose bytes changed is refused before it is decoded, naming the page.
        let reader = try written.reader()
        let page = ManifestPaging.file(for: reader.root.pages[0].sha256)
        var pages = written.pages
        pages[page]![10] ^= 1
        let damaged = try #require(throws: CardManifest.ReadError.self) { try Self.read(written.root, pages: pages) }
        #expect(damaged == .damagedPage(source: "m.json", file: page))
        pages[page] = nil
        let missing = try #require(throws: CardManifest.ReadError.self) { try Self.read(written.root, pages: pages) }
        #expect(missing.description.hasPrefix("m.json: \(page): cannot read"), "\(missing)")
    }

    @Test("A root whose counts disagree is refused, saying what disagrees")
    func inconsistentRoot() throws {
        let written = try WrittenManifest(CardManifestTests.manifest(cards: 40))
        var json = try written.rootJSON
        json["count"] = 41
        let error = try #require(throws: CardManifest.ReadError.self) {
            try Self.read(JSONSerialization.data(withJSONObject: json), pages: written.pages)
        }
        #expect(error.description == "m.json: not a cardbake manifest: count is 41 but the head and pages hold 40 cards")
    }

    @Test("Bytes that are not JSON, and a missing file, are errors that name the source")
    func notJSON() throws {
        let error = try #require(throws: CardManifest.ReadError.self) { try Self.read(Data("<html>".utf8)) }
        #expect(error.description.hasPrefix("m.json: not a cardbake manifest"))
        let missing = URL(fileURLWithPath: "/nonexistent/manifest.json")
        #expect(throws: CardManifest.ReadError.self) { try CardManifest(contentsOf: missing) }
    }
}
