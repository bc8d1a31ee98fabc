import Foundation
import Testing

/// Every hostile image of issue 4 as a card among good cards, in one catalog.
@Suite("Hostile images")
struct HostileImageTests {
    static let goodCards = [CardSpec("good-first", image: "coffee.jpg"), CardSpec("good-middle", image: "chelsea.jpg"),
                            CardSpec("good-last", image: "rocket.jpg")]

    /// The catalog: a good card first, in the middle and last, the hostile ones between.
    static var cards: [CardSpec] {
        let hostile = HostileImage.all.map { CardSpec($0.id, image: $0.file) }
        let middle = hostile.count / 2
        return [goodCards[0]] + hostile[..<middle] + [goodCards[1]] + hostile[middle...] + [goodCards[2]]
    }

    /// When the tests run as root, cardbake runs as `nobody`, so the mode-000 image is unreadable to it
    /// (see ``Sandbox/runUnprivileged(_:)``).
    @Test("Each hostile image fails only its card, named with file, card, field and reason; the good cards are built, nothing half-written")
    func hostileImages() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Self.cards)
            for image in HostileImage.all {
                try image.make(sandbox.url("images/\(image.file)"))
            }

            // When
            let first = try sandbox.runUnprivileged(["build", "catalog.json", "--output", "OUT"])
            let output = sandbox.listing("OUT")
            let second = try sandbox.runUnprivileged(["build", "catalog.json", "--output", "OUT"])

            // Then every hostile card fails with one line naming the catalog, card, field and image, and why
            let cards = Self.cards
            for result in [first, second] {
                #expect(result.status == 1 && result.exited, result.comment)
                for image in HostileImage.all {
                    let index = try #require(cards.firstIndex { $0.id == image.id })
                    let prefix = "error: catalog.json: cards[\(index)] (\"\(image.id)\").image: "
                        + image.reason(sandbox.url("images/\(image.file)").path)
                    let line = result.stderrLines.first { $0.hasPrefix(prefix) }
                    #expect(line != nil, "\(image): no line starting \(prefix)\n\(result)")
                    if let line {
                        #expect(line.count > prefix.count || prefix.hasSuffix("."), "\(image): no reason given: \(line)")
                        for word in image.mentions {
                            #expect(line.lowercased().contains(word.lowercased()), "\(image): \(line) does not mention \(word)")
                        }
                    }
                }
                #expect(result.stderrLines.filter { $0.hasPrefix("error:") }.count == HostileImage.all.count, result.comment)
            }

            // the good cards are built, in catalog order, and Output holds nothing else: no partial, no temporary file
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.map(\.id) == Self.goodCards.map(\.id))
            // (and the gallery's two chunk files and the manifest's pages, named by their digests)
            #expect(sandbox.fileNames("OUT").filter { !$0.hasPrefix("gallery/") && !$0.hasPrefix("manifest/") }
                    == (["cards", "gallery", "index-version.js", "index.html", "manifest", "manifest.json"] + Self.goodCards.map { "cards/\($0.id)@1x.jpg" }).sorted())
            #expect(sandbox.fileNames("OUT").filter { $0.hasPrefix("gallery/") }.count == 2)
            for entry in manifest.cards {
                let image = try #require(entry.images["1x"])
                #expect(try sandbox.data("OUT/\(image.file)").count == image.bytes, "\(entry.id)")
            }
            #expect(sandbox.temporaryFiles("OUT").isEmpty && sandbox.temporaryFiles(".cardbake").isEmpty)

            // and the second build still fails the hostile cards, renders nothing and rewrites nothing
            let failed = HostileImage.all.count, good = Self.goodCards.count
            #expect(Summary.find(in: first) == Summary(total: failed + good, rendered: good, cached: 0, failed: failed), first.comment)
            #expect(Summary.find(in: second) == Summary(total: failed + good, rendered: 0, cached: good, failed: failed), second.comment)
            #expect(sandbox.listing("OUT") == output)
        }
    }
}
