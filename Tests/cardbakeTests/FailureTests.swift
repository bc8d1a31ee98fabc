import Foundation
import Testing

/// Cards that cannot be built, and catalogs that cannot be read.
@Suite("Failures")
struct FailureTests {
    @Test("Bad images fail their cards only: exit 1, each named on stderr with file, card, field, path and reason")
    func badImages() throws {
        try Sandbox.with { sandbox in
            // Given good cards around a missing image, a truncated JPEG and a text file named .png
            let astronaut = try Data(contentsOf: CardbakeBinary.demoImages.appendingPathComponent("astronaut.jpg"))
            try sandbox.write(astronaut.prefix(3000), to: "images/truncated.jpg")
            try sandbox.write("This is not an image.\n", to: "images/notes.png")
            let cards = [
                CardSpec("good-coffee", image: "coffee.jpg"),
                CardSpec("missing-image", image: "nowhere.jpg"),
                CardSpec("truncated-jpeg", image: "truncated.jpg"),
                CardSpec("text-as-png", image: "notes.png"),
                CardSpec("good-cat", image: "chelsea.jpg"),
            ]
            try sandbox.copyImage("coffee.jpg")
            try sandbox.copyImage("chelsea.jpg")
            try sandbox.writeCatalog(cards)

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then the build reports the failures
            #expect(result.status == 1, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 5, rendered: 2, cached: 0, failed: 3), result.comment)
            // and counts that add up when planning already failed a card
            #expect(result.stderr.contains("5 cards: 4 to render, 0 cached, 1 failed"), result.comment)

            // each on one stderr line naming the catalog as given, the card, the field, the image and why
            let failed = [(1, "missing-image", "nowhere.jpg", "cannot read image"),
                          (2, "truncated-jpeg", "truncated.jpg", "cannot decode image"),
                          (3, "text-as-png", "notes.png", "cannot decode image")]
            for (index, id, image, what) in failed {
                let path = sandbox.url("images/\(image)").path
                let prefix = "error: catalog.json: cards[\(index)] (\"\(id)\").image: \(what) \(path): "
                let line = result.stderrLines.first { $0.hasPrefix(prefix) }
                #expect(line != nil, "no line starting \(prefix)\n\(result)")
                if let line {
                    #expect(line.count > prefix.count + 3, "no reason given: \(line)")
                }
            }
            #expect(result.stderrLines.filter { $0.hasPrefix("error:") }.count == 3, result.comment)

            // the good cards are built, in order, and the failed ones are left out
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.map(\.id) == ["good-coffee", "good-cat"])
            #expect(sandbox.fileNames("OUT/cards") == ["good-cat@1x.jpg", "good-coffee@1x.jpg"])

            // and the report marks the failures with field and reason
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.cards.map(\.id) == cards.map(\.id))
            #expect(report.cards.map(\.status) == ["rendered", "failed", "failed", "failed", "rendered"])
            for (index, id, image, what) in failed {
                let card = try #require(report.card(id))
                #expect(card.index == index)
                #expect(card.field == "image")
                #expect(card.reason?.hasPrefix("\(what) \(sandbox.url("images/\(image)").path): ") == true,
                        "\(card.reason ?? "no reason")")
            }
        }
    }

    @Test("Failed cards stay failed on the next build, and are built once their image is fixed")
    func fixedImage() throws {
        try Sandbox.with { sandbox in
            // Given a build with one missing image
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg"), CardSpec("cat", image: "chelsea.jpg")])
            try sandbox.remove("images/chelsea.jpg")
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 1)
            let again = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // When the image appears
            try sandbox.copyImage("chelsea.jpg")
            let fixed = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then
            #expect(again.status == 1, again.comment)
            #expect(Summary.find(in: again) == Summary(total: 2, rendered: 0, cached: 1, failed: 1), again.comment)
            #expect(fixed.status == 0, fixed.comment)
            #expect(Summary.find(in: fixed) == Summary(total: 2, rendered: 1, cached: 1, failed: 0), fixed.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == ["coffee", "cat"])
        }
    }

    @Test("An image over --max-pixels fails its card before decoding")
    func maxPixels() throws {
        try Sandbox.with { sandbox in
            // Given coffee.jpg: 600 × 400 = 240,000 pixels
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg"), CardSpec("cat", image: "chelsea.jpg")])

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--max-pixels", "200000"])

            // Then
            #expect(result.status == 1, result.comment)
            #expect(result.stderr.contains("cards[0] (\"coffee\").image: image \(sandbox.url("images/coffee.jpg").path) is 600 × 400 pixels"),
                    result.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == ["cat"])
        }
    }

    /// Catalogs that do not validate, and what stderr must say: the catalog as given, where, and what.
    static let invalidCatalogs: [(name: String, text: String, message: String)] = [
        ("bad JSON",
         "{\n  \"version\": 1,\n  \"cards\": [\n    {\"id\": \"a\",, \"image\": \"x.jpg\"}\n  ]\n}\n",
         "catalog.json:4:16: invalid JSON: "),
        ("unknown key titel",
         "{\n  \"version\": 1,\n  \"cards\": [\n    {\"id\": \"coffee\", \"image\": \"images/coffee.jpg\", \"titel\": \"T\", \"description\": \"D\"}\n  ]\n}\n",
         "catalog.json: cards[0] (\"coffee\").titel: unknown key \"titel\""),
        ("unsupported version",
         "{\"version\": 2, \"cards\": []}",
         "catalog.json: version: unsupported catalog version 2"),
        ("duplicate id",
         "{\"version\": 1, \"cards\": [{\"id\": \"a\", \"image\": \"a.jpg\", \"title\": \"\", \"description\": \"\"}, {\"id\": \"a\", \"image\": \"a.jpg\", \"title\": \"\", \"description\": \"\"}]}",
         "catalog.json: cards[1] (\"a\").id: duplicate id"),
    ]

    @Test("An invalid catalog exits 2, says where the problem is, and creates neither output nor cache",
          arguments: invalidCatalogs.indices)
    func invalidCatalog(index: Int) throws {
        let (name, text, message) = Self.invalidCatalogs[index]
        try Sandbox.with { sandbox in
            // Given
            try sandbox.copyImage("coffee.jpg")
            try sandbox.write(text, to: "catalog.json")
            let before = sandbox.listing(".")

            // When
            let build = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            for result in [build, check] {
                #expect(result.status == 2, "\(name): \(result)")
                #expect(result.stdout.isEmpty, "\(name): \(result)")
                // The catalog named as given on the command line (relative), then where and what.
                let line = result.stderrLines.first { $0.contains(message) }
                #expect(line != nil, "\(name): no line with \(message)\n\(result)")
                #expect(result.stderrLines.contains { $0.hasPrefix("error: " + message) }, "\(name): \(result)")
            }
            #expect(sandbox.listing(".") == before, "\(name): files were written")
            #expect(!sandbox.exists("OUT") && !sandbox.exists(".cardbake"))
        }
    }

    @Test("A catalog that does not exist exits 2 naming it")
    func missingCatalog() throws {
        try Sandbox.with { sandbox in
            // When
            let result = try sandbox.run(["build", "nothing-here.json", "--output", "OUT"])

            // Then
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("nothing-here.json: cannot read the catalog"), result.comment)
            #expect(sandbox.fileNames(".").isEmpty)
        }
    }
}
