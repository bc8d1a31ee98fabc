import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Testing

/// Three cards whose ids are deliberately not in alphabetical order, so that catalog order shows.
let threeCards = [
    CardSpec("zeta-coffee", image: "coffee.jpg", title: "Coffee & Crema"),
    CardSpec("alpha-astronaut", image: "astronaut.jpg", title: "Eileen Collins"),
    CardSpec("mid-cat", image: "chelsea.jpg", title: "Γάτα Chelsea"),
]

/// Building cards: what lands in the output folder, and what the cache saves on the next build.
@Suite("Build")
struct BuildTests {
    @Test("A build writes every card at every scale with the right pixel size, and a manifest in catalog order")
    func firstBuild() throws {
        try Sandbox.with { sandbox in
            // Given a catalog of three cards at scales 1 and 2
            try sandbox.writeCatalog(threeCards, style: ["scales": [1, 2]])

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then it succeeds and says so
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 3, cached: 0, failed: 0), result.comment)
            #expect(result.stderr.contains("3 cards: 3 to render, 0 cached, 0 failed"), result.comment)
            #expect(!result.stderr.contains("error:"), result.comment)

            // and writes exactly the expected files
            let expectedFiles = threeCards.flatMap { card in [1, 2].map { "cards/\(card.id)@\($0)x.jpg" } }
            #expect(sandbox.fileNames("OUT").filter { !$0.hasPrefix("gallery/") && !$0.hasPrefix("manifest/") }
                    == (["cards", "gallery", "index-version.js", "index.html", "manifest", "manifest.json"] + expectedFiles).sorted())
            // and the gallery's chunks of cards and of titles, and the manifest's pages, named by their digests
            #expect(sandbox.fileNames("OUT").filter { $0.hasPrefix("gallery/") }.count == 2)

            // and the manifest describes them, in catalog order
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.generator == Builder.generator)
            #expect(manifest.cards.map(\.id) == threeCards.map(\.id))
            for (card, entry) in zip(threeCards, manifest.cards) {
                #expect(entry.title == card.title)
                #expect(entry.description == card.description)
                let points = DemoImage.cardSize(of: card.image)
                #expect(entry.size == ManifestFile.Size(width: Double(points.width), height: Double(points.height)))
                #expect(isHexDigest(entry.key))
                #expect(entry.placeholder.color.wholeMatch(of: /#[0-9A-F]{6}/) != nil, "placeholder \(entry.placeholder.color)")
                #expect(entry.placeholder.thumbhash.wholeMatch(of: /[A-Za-z0-9+\/]{20,}={0,2}/) != nil)
                #expect(entry.placeholder.dataURL.hasPrefix("data:image/webp;base64,"))
                for digest in [entry.inputs.image, entry.inputs.text, entry.inputs.style, entry.inputs.renderer] {
                    #expect(isHexDigest(digest))
                }
                #expect(entry.images.keys.sorted() == ["1x", "2x"])
                for scale in [1, 2] {
                    let image = try #require(entry.images["\(scale)x"])
                    let expected = DemoImage.pixelSize(of: card.image, scale: scale)
                    #expect(image.file == "cards/\(card.id)@\(scale)x.jpg")
                    #expect(image.width == expected.width && image.height == expected.height)
                    let bytes = try sandbox.data("OUT/\(image.file)")
                    let size = try #require(jpegSize(bytes), "\(image.file) is not a JPEG")
                    #expect(size.width == expected.width && size.height == expected.height,
                            "\(image.file) is \(size.width)×\(size.height), expected \(expected.width)×\(expected.height)")
                    #expect(image.bytes == bytes.count)
                    #expect(image.sha256 == ContentDigest.sha256(bytes).description)
                }
            }
            // The same image digest as the source file's bytes.
            let coffee = try #require(manifest.entry("zeta-coffee"))
            #expect(coffee.inputs.image == ContentDigest.sha256(try sandbox.data("images/coffee.jpg")).description)
        }
    }

    @Test("A second build renders nothing and rewrites no file")
    func secondBuildIsCached() throws {
        try Sandbox.with { sandbox in
            // Given a finished build
            try sandbox.writeCatalog(threeCards, style: ["scales": [1, 2]])
            let first = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            try #require(first.status == 0, first.comment)
            let before = sandbox.listing("OUT")

            // When the same catalog is built again
            let second = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then every card comes from the cache and no file is touched
            #expect(second.status == 0, second.comment)
            #expect(Summary.find(in: second) == Summary(total: 3, rendered: 0, cached: 3, failed: 0), second.comment)
            #expect(second.stderr.contains("3 cards: 0 to render, 3 cached, 0 failed"), second.comment)
            let after = sandbox.listing("OUT")
            #expect(after.keys.sorted() == before.keys.sorted())
            for (name, identity) in before where !identity.isDirectory {
                #expect(after[name] == identity, "\(name) was rewritten: \(identity) → \(after[name].map(\.description) ?? "gone")")
            }
        }
    }

    @Test("Editing one title renders only that card, reusing its cached background")
    func titleEdit() throws {
        try Sandbox.with { sandbox in
            // Given a finished build
            try sandbox.writeCatalog(threeCards)
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let before = sandbox.listing("OUT")

            // When one card's title changes
            var edited = threeCards
            edited[1].title = "Commander Eileen Collins"
            try sandbox.writeCatalog(edited)
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then only that card is rendered
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 1, cached: 2, failed: 0), result.comment)
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.cards.map(\.id) == threeCards.map(\.id))
            #expect(report.cards.map(\.index) == [0, 1, 2])
            let changed = try #require(report.card("alpha-astronaut"))
            #expect(changed.status == "rendered")
            #expect(changed.stages?.background == "cached", "the background depends on the image only")
            #expect(changed.stages?.images == ["1x": "rendered"])
            for id in ["zeta-coffee", "mid-cat"] {
                let card = try #require(report.card(id))
                #expect(card.status == "cached", "\(id)")
                #expect(card.stages?.images == ["1x": "cached"], "\(id)")
                #expect(card.reason == nil)
            }
            #expect(report.removed.isEmpty)

            // and the manifest and files follow: the edited card's file is new, the others untouched
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.entry("alpha-astronaut")?.title == "Commander Eileen Collins")
            let after = sandbox.listing("OUT")
            #expect(after["cards/alpha-astronaut@1x.jpg"] != before["cards/alpha-astronaut@1x.jpg"])
            #expect(after["cards/zeta-coffee@1x.jpg"] == before["cards/zeta-coffee@1x.jpg"])
            #expect(after["cards/mid-cat@1x.jpg"] == before["cards/mid-cat@1x.jpg"])
        }
    }

    @Test("A build puts back deleted or replaced output files from the cache, without rendering")
    func repairsOutput() throws {
        try Sandbox.with { sandbox in
            // Given a build, then one card file deleted and another replaced by a new file (one
            // rewritten in place takes its cache blob with it: SharedBitmapTests)
            try sandbox.writeCatalog(threeCards)
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let original = try threeCards.map { try sandbox.data("OUT/cards/\($0.id)@1x.jpg") }
            try sandbox.remove("OUT/cards/zeta-coffee@1x.jpg")
            try Data("junk".utf8).write(to: sandbox.url("OUT/cards/mid-cat@1x.jpg"), options: .atomic)

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 3, rendered: 0, cached: 3, failed: 0), result.comment)
            #expect(try threeCards.map { try sandbox.data("OUT/cards/\($0.id)@1x.jpg") } == original)
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])
            #expect(check.status == 0, check.comment)
        }
    }

    @Test("Two builds with separate empty caches and different job counts give byte-identical output")
    func determinism() throws {
        try Sandbox.with { sandbox in
            // Given
            let cards = threeCards + [CardSpec("retina", image: "retina-cutout.png")]
            try sandbox.writeCatalog(cards, style: ["scales": [1, 2]])

            // When built twice from scratch
            let one = try sandbox.run(["build", "catalog.json", "--output", "one", "--cache-dir", "cache-one", "--jobs", "1"])
            let two = try sandbox.run(["build", "catalog.json", "--output", "two", "--cache-dir", "cache-two", "--jobs", "2"])

            // Then
            try #require(one.status == 0, one.comment)
            try #require(two.status == 0, two.comment)
            #expect(Summary.find(in: two)?.rendered == 4, two.comment)
            let files = sandbox.fileNames("one")
            // cards/, manifest/, the manifest, the gallery's page, version, folder and two chunks, and the
            // bitmaps; then the manifest's pages: the build page of its head, the build index and one ID page.
            #expect(files.filter { !$0.hasPrefix("manifest/") }.count == 8 + 4 * 2)
            #expect(files.filter { $0.hasPrefix("manifest/") }.count == 3)
            #expect(sandbox.fileNames("two") == files)
            for file in files where !(FileIdentity(of: sandbox.url("one/\(file)"))?.isDirectory ?? true) {
                #expect(try sandbox.data("one/\(file)") == sandbox.data("two/\(file)"), "\(file) differs")
            }
        }
    }

    @Test("--format png writes lossless .png files, and removes the JPEGs of the previous default build")
    func pngFormat() throws {
        try Sandbox.with { sandbox in
            // Given a build in the default format
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)

            // When built again as PNG
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--format", "png"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result)?.rendered == 2, result.comment)
            #expect(sandbox.fileNames("OUT/cards") == ["alpha-astronaut@1x.png", "zeta-coffee@1x.png"])
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            for entry in manifest.cards {
                let image = try #require(entry.images["1x"])
                #expect(image.file == "cards/\(entry.id)@1x.png")
                let bytes = try sandbox.data("OUT/\(image.file)")
                let size = try #require(pngSize(bytes), "\(image.file) is not a PNG")
                #expect(size.width == image.width && size.height == image.height)
                #expect(image.sha256 == ContentDigest.sha256(bytes).description)
            }
        }
    }

    @Test("A folder an older cardbake wrote as PNG, its default then, is rebuilt in today's default: JPEGs, no PNG left")
    func upgradeFromPNGDefault() throws {
        try Sandbox.with { sandbox in
            // Given the output and cache of a PNG build (what the default wrote before JPEG)
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT", "--format", "png"]).status == 0)

            // When built with the default format
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then every card is rendered again as JPEG, and check finds the folder up to date
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result)?.rendered == 2, result.comment)
            #expect(sandbox.fileNames("OUT/cards") == ["alpha-astronaut@1x.jpg", "zeta-coffee@1x.jpg"])
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.allSatisfy { $0.images["1x"]?.file.hasSuffix(".jpg") == true })
            #expect(try sandbox.run(["check", "catalog.json", "--output", "OUT"]).status == 0)
        }
    }

    @Test("--format webp writes .webp files that are WebP images")
    func webpFormat() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg")])

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--format", "webp"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT/cards") == ["coffee@1x.webp"])
            let bytes = try sandbox.data("OUT/cards/coffee@1x.webp")
            #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes.dropFirst(8).prefix(4)) == Array("WEBP".utf8))
        }
    }

    @Test("--scales 2 overrides the catalog's scales: only @2x files, at twice the size")
    func scalesOverride() throws {
        try Sandbox.with { sandbox in
            // Given a catalog asking for scales 1 and 3
            try sandbox.writeCatalog(Array(threeCards.prefix(2)), style: ["scales": [1, 3]])

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--scales", "2"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT/cards") == ["alpha-astronaut@2x.jpg", "zeta-coffee@2x.jpg"])
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            for (card, entry) in zip(threeCards, manifest.cards) {
                #expect(entry.images.keys.sorted() == ["2x"])
                let expected = DemoImage.pixelSize(of: card.image, scale: 2)
                let size = try #require(jpegSize(try sandbox.data("OUT/cards/\(card.id)@2x.jpg")))
                #expect(size.width == expected.width && size.height == expected.height)
            }
        }
    }

    @Test("The demo catalog builds completely at three scales in English, Arabic and Japanese, and check then finds it up to date")
    func demoCatalog() throws {
        try Sandbox.with { sandbox in
            // Given a copy of Input/
            try FileManager.default.copyItem(at: CardbakeBinary.demoCatalog.deletingLastPathComponent(),
                                             to: sandbox.url("Input"))
            let catalog = try JSONSerialization.jsonObject(with: sandbox.data("Input/catalog.json")) as? [String: Any]
            let ids = try #require(catalog?["cards"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            try #require(ids.count == 13)

            // When
            let result = try sandbox.run(["build"])
            let check = try sandbox.run(["check"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(!result.stderr.contains("warning"), "every text is translated: \(result.comment)")
            #expect(Summary.find(in: result) == Summary(total: 13, rendered: 13, cached: 0, failed: 0), result.comment)
            let manifest = try ManifestFile.read(from: sandbox.url("Output/manifest.json"))
            #expect(manifest.cards.map(\.id) == ids)
            #expect(sandbox.fileNames("Output/cards").filter { $0.hasSuffix(".jpg") && !$0.contains("/") }.count == 13 * 3)
            #expect(sandbox.fileNames("Output/cards/ar").count == 13 * 3 && sandbox.fileNames("Output/cards/ja").count == 13 * 3)
            for entry in manifest.cards {
                #expect(entry.locale == "en" && entry.localizations?.keys.sorted() == ["ar", "ja"])
                let locales = [entry.images] + (entry.localizations ?? [:]).values.map(\.images)
                for (name, image) in locales.flatMap({ $0 }) {
                    #expect(name == "1x" || name == "2x" || name == "3x")
                    let size = try #require(jpegSize(try sandbox.data("Output/\(image.file)")))
                    #expect(size.width == image.width && size.height == image.height, "\(entry.id) \(name)")
                    let scale = Double(Int(name.dropLast()) ?? 0)
                    #expect(Double(image.width) == entry.size.width * scale && Double(image.height) == entry.size.height * scale)
                }
            }
            #expect(check.status == 0, check.comment)
            #expect(check.stdout.isEmpty, check.comment)
        }
    }
}
