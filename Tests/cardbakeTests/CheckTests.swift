import Foundation
import Testing

/// `cardbake check`: says what a build would change, and never writes anything.
@Suite("Check")
struct CheckTests {
    /// Something done to a built output folder or its inputs, and the line check must then print.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case editTitle, editDescription, rewriteImage, deleteOutputFile, modifyOutputFile, removeCard, addCard,
             deleteImage, changeStyle

        var testDescription: String { rawValue }

        /// The line expected on stdout: a prefix, as reasons may name paths.
        var expectedLine: String {
            switch self {
            case .editTitle, .editDescription: "stale: mid-cat: title or description changed"
            case .rewriteImage: "stale: zeta-coffee: image changed"
            case .deleteOutputFile: "stale: mid-cat: cards/mid-cat@1x.jpg is missing"
            case .modifyOutputFile: "stale: mid-cat: cards/mid-cat@1x.jpg was modified after the build"
            case .removeCard: "extra: alpha-astronaut: no longer in the catalog"
            case .addCard: "missing: new-card: "
            case .deleteImage: "failing: zeta-coffee: cannot read image "
            case .changeStyle: "stale: zeta-coffee: style changed"
            }
        }

        func apply(to sandbox: Sandbox) throws {
            var cards = threeCards
            switch self {
            case .editTitle:
                cards[2].title = "Chelsea, again"
                try sandbox.writeCatalog(cards)
            case .editDescription:
                cards[2].description += " More."
                try sandbox.writeCatalog(cards)
            case .rewriteImage:
                // Different bytes under the same name.
                try sandbox.write(Data(contentsOf: CardbakeBinary.demoImages.appendingPathComponent("coins.jpg")),
                                  to: "images/coffee.jpg")
            case .deleteOutputFile:
                try sandbox.remove("OUT/cards/mid-cat@1x.jpg")
            case .modifyOutputFile:
                var bytes = try sandbox.data("OUT/cards/mid-cat@1x.jpg")
                bytes[bytes.count - 20] ^= 0xFF
                try sandbox.write(bytes, to: "OUT/cards/mid-cat@1x.jpg")
            case .removeCard:
                cards.remove(at: 1)
                try sandbox.writeCatalog(cards)
            case .addCard:
                cards.append(CardSpec("new-card", image: "coins.jpg"))
                try sandbox.writeCatalog(cards)
            case .deleteImage:
                try sandbox.remove("images/coffee.jpg")
            case .changeStyle:
                // A card's own style block.
                var json = try #require(try JSONSerialization.jsonObject(with: sandbox.data("catalog.json")) as? [String: Any])
                var entries = try #require(json["cards"] as? [[String: Any]])
                entries[0]["style"] = ["blur": ["radius": 5]]
                json["cards"] = entries
                try sandbox.write(JSONSerialization.data(withJSONObject: json), to: "catalog.json")
            }
        }
    }

    /// Builds the three cards into `OUT` with the default cache.
    private func build(in sandbox: Sandbox) throws {
        try sandbox.writeCatalog(threeCards)
        let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
        try #require(result.status == 0, result.comment)
    }

    @Test("check exits 0 and prints nothing on stdout right after a build, even after the image is touched")
    func upToDate() throws {
        try Sandbox.with { sandbox in
            // Given
            try build(in: sandbox)
            let before = sandbox.listing(".")

            // When
            let result = try sandbox.run(["check", "catalog.json", "--output", "OUT"])
            // the same bytes with a new modification time: the content hash decides
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: sandbox.url("images/coffee.jpg").path)
            let touched = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(result.stdout.isEmpty, result.comment)
            #expect(result.stderr.contains("OUT is up to date"), result.comment)
            #expect(touched.status == 0, touched.comment)
            #expect(touched.stdout.isEmpty, touched.comment)
            var after = sandbox.listing(".")
            after["images/coffee.jpg"] = before["images/coffee.jpg"]
            #expect(after == before, "check wrote to the folder")
        }
    }

    @Test("check exits 1 and names the card and the change, writing nothing", arguments: Change.allCases)
    func outOfDate(change: Change) throws {
        try Sandbox.with { sandbox in
            // Given a build, then a change
            try build(in: sandbox)
            try change.apply(to: sandbox)
            let before = sandbox.listing(".")

            // When
            let result = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            #expect(result.status == 1, result.comment)
            #expect(result.stdoutLines.count == 1, result.comment)
            #expect(result.stdoutLines.first?.hasPrefix(change.expectedLine) == true, result.comment)
            #expect(result.stderr.contains("1 card out of date"), result.comment)
            #expect(sandbox.listing(".") == before, "check changed files: \(sandbox.fileNames(".")) vs \(before.keys.sorted())")
        }
    }

    @Test("check takes the same --scales and --format overrides as the build it compares with")
    func overrides() throws {
        try Sandbox.with { sandbox in
            // Given a build with overrides
            try sandbox.writeCatalog(threeCards)
            let built = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--scales", "2", "--format", "jpeg"])
            try #require(built.status == 0, built.comment)

            // When
            let same = try sandbox.run(["check", "catalog.json", "--output", "OUT", "--scales", "2", "--format", "jpeg"])
            let plain = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            #expect(same.status == 0, same.comment)
            #expect(plain.status == 1, plain.comment)
            #expect(plain.stdoutLines.count == threeCards.count, plain.comment)
        }
    }

    @Test("check with no output yet lists every card as missing and creates neither output nor cache")
    func neverBuilt() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(threeCards)
            let before = sandbox.listing(".")

            // When
            let result = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            #expect(result.status == 1, result.comment)
            let lines = result.stdoutLines
            #expect(lines.count == threeCards.count, result.comment)
            for (line, card) in zip(lines, threeCards) {
                #expect(line.hasPrefix("missing: \(card.id): "), result.comment)
            }
            #expect(sandbox.listing(".") == before)
            #expect(!sandbox.exists("OUT") && !sandbox.exists(".cardbake"))
        }
    }

    @Test("After a change, a build makes check pass again")
    func buildFixesCheck() throws {
        try Sandbox.with { sandbox in
            // Given a stale output
            try build(in: sandbox)
            try Change.rewriteImage.apply(to: sandbox)
            try Change.editTitle.apply(to: sandbox)
            try #require(try sandbox.run(["check", "catalog.json", "--output", "OUT"]).status == 1)

            // When
            let build = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])

            // Then
            #expect(Summary.find(in: build) == Summary(total: 3, rendered: 2, cached: 1, failed: 0), build.comment)
            #expect(check.status == 0, check.comment)
            #expect(check.stdout.isEmpty, check.comment)
        }
    }
}
