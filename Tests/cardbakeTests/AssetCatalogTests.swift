import Foundation
import Testing

/// `--xcassets`: an Xcode asset catalog kept in line with the output folder.
@Suite("Asset catalog")
struct AssetCatalogTests {
    static let build = ["build", "catalog.json", "--output", "OUT", "--xcassets", "OUT/Cards.xcassets"]
    static let check = ["check", "catalog.json", "--output", "OUT", "--xcassets", "OUT/Cards.xcassets"]
    static let topContents = "{\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"

    /// Builds `threeCards` with the catalog and returns its listing.
    static func builtCatalog(in sandbox: Sandbox) throws -> [String: FileIdentity] {
        try sandbox.writeCatalog(threeCards)
        try #require(try sandbox.run(build).status == 0)
        return sandbox.listing("OUT/Cards.xcassets")
    }

    /// Expects the same names, and every file with the same identity (inode, size, modification time).
    static func expectFilesUnchanged(_ before: [String: FileIdentity], _ after: [String: FileIdentity]) {
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, identity) in before where !identity.isDirectory {
            #expect(after[name] == identity, "\(name) was rewritten or changed")
        }
    }

    @Test("The catalog opens as Xcode reads it: valid JSON, every listed file present at its scale's size, nothing unlisted")
    func layout() throws {
        try Sandbox.with { sandbox in
            // Given a catalog of three cards at scales 1 and 3
            try sandbox.writeCatalog(threeCards, style: ["scales": [1, 3]])

            // When it is built with --xcassets
            let result = try sandbox.run(Self.build)

            // Then the top Contents.json is Xcode's, byte for byte
            #expect(result.status == 0, result.comment)
            #expect(String(decoding: try sandbox.data("OUT/Cards.xcassets/Contents.json"), as: UTF8.self) == Self.topContents)
            // and each card has an image set listing exactly its files, each present at the size its scale implies
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            var expected: Set<String> = ["Contents.json", ".cardbake-files"]
            for card in threeCards {
                let set = "\(card.id).imageset"
                let json = try #require(try JSONSerialization.jsonObject(
                    with: sandbox.data("OUT/Cards.xcassets/\(set)/Contents.json")) as? [String: Any])
                #expect((json["info"] as? [String: Any])?["author"] as? String == "xcode")
                let images = try #require(json["images"] as? [[String: String]])
                #expect(images.map { $0["scale"] } == ["1x", "3x"], "scales the build does not make are not listed")
                #expect(images.allSatisfy { $0["idiom"] == "universal" && $0.count == 3 })
                let entry = try #require(manifest.entry(card.id))
                let points = DemoImage.cardSize(of: card.image)
                for image in images {
                    let name = try #require(image["filename"])
                    let scale = Int(try #require(image["scale"]).dropLast())!
                    let bytes = try sandbox.data("OUT/Cards.xcassets/\(set)/\(name)")
                    let size = try #require(jpegSize(bytes), "\(name) is not a JPEG")
                    #expect(size.width == points.width * scale && size.height == points.height * scale, "\(name)")
                    // the same file as in cards/: a hard link on this file system
                    let output = try #require(entry.images["\(scale)x"]).file
                    #expect(FileIdentity(of: sandbox.url("OUT/Cards.xcassets/\(set)/\(name)"))?.inode
                            == FileIdentity(of: sandbox.url("OUT/\(output)"))?.inode)
                    expected.insert("\(set)/\(name)")
                }
                expected.insert(set)
                expected.insert("\(set)/Contents.json")
            }
            #expect(Set(sandbox.fileNames("OUT/Cards.xcassets")) == expected)
            // and an image set's JSON is laid out as Xcode lays it out
            #expect(String(decoding: try sandbox.data("OUT/Cards.xcassets/mid-cat.imageset/Contents.json"), as: UTF8.self) == """
                {
                  "images" : [
                    {
                      "filename" : "mid-cat@1x.jpg",
                      "idiom" : "universal",
                      "scale" : "1x"
                    },
                    {
                      "filename" : "mid-cat@3x.jpg",
                      "idiom" : "universal",
                      "scale" : "3x"
                    }
                  ],
                  "info" : {
                    "author" : "xcode",
                    "version" : 1
                  }
                }

                """)
            // and check finds it up to date
            #expect(try sandbox.run(Self.check).status == 0)
        }
    }

    @Test("A rebuild rewrites no catalog file, and restores one that was changed or deleted")
    func incremental() throws {
        try Sandbox.with { sandbox in
            // Given a built catalog
            let before = try Self.builtCatalog(in: sandbox)
            let bytes = try Dictionary(uniqueKeysWithValues: before.filter { !$1.isDirectory }.keys.map {
                ($0, try sandbox.data("OUT/Cards.xcassets/\($0)"))
            })

            // When it is built again, the whole build cached
            #expect(try sandbox.run(Self.build).status == 0)

            // Then no file was touched
            Self.expectFilesUnchanged(before, sandbox.listing("OUT/Cards.xcassets"))

            // When one image set's JSON is edited and one image deleted
            try sandbox.write("{}", to: "OUT/Cards.xcassets/mid-cat.imageset/Contents.json")
            try sandbox.remove("OUT/Cards.xcassets/zeta-coffee.imageset/zeta-coffee@1x.jpg")
            let check = try sandbox.run(Self.check)
            #expect(check.status == 1, check.comment)
            #expect(check.stdout.contains("stale: mid-cat: ") && check.stdout.contains("mid-cat.imageset/Contents.json differs"),
                    check.comment)
            #expect(check.stdout.contains("stale: zeta-coffee: ") && check.stdout.contains("zeta-coffee@1x.jpg is missing"),
                    check.comment)
            #expect(try sandbox.run(Self.build).status == 0)

            // Then the next build puts both back, byte for byte, and leaves the rest alone
            for (name, data) in bytes {
                #expect(try sandbox.data("OUT/Cards.xcassets/\(name)") == data, "\(name)")
            }
            let restored = sandbox.listing("OUT/Cards.xcassets")
            #expect(restored["alpha-astronaut.imageset/Contents.json"] == before["alpha-astronaut.imageset/Contents.json"])
            #expect(try sandbox.run(Self.check).status == 0)
        }
    }

    @Test("A removed card's image set is deleted; folders cardbake did not write are kept")
    func pruned() throws {
        try Sandbox.with { sandbox in
            // Given a built catalog, to which the user added an image set and a colour of their own
            _ = try Self.builtCatalog(in: sandbox)
            try sandbox.write("{}\n", to: "OUT/Cards.xcassets/Logo.imageset/Contents.json")
            try sandbox.write("{}\n", to: "OUT/Cards.xcassets/Accent.colorset/Contents.json")

            // When a card leaves the catalog and another changes format
            try sandbox.writeCatalog(Array(threeCards.dropLast()), style: ["scales": [1], "format": "jpeg"])
            let result = try sandbox.run(Self.build)

            // Then its image set is gone, the others hold only the new files, and the user's folders remain
            #expect(result.status == 0, result.comment)
            #expect(!sandbox.exists("OUT/Cards.xcassets/mid-cat.imageset"))
            #expect(sandbox.fileNames("OUT/Cards.xcassets/zeta-coffee.imageset") == ["Contents.json", "zeta-coffee@1x.jpg"])
            #expect(sandbox.exists("OUT/Cards.xcassets/Logo.imageset/Contents.json"))
            #expect(sandbox.exists("OUT/Cards.xcassets/Accent.colorset/Contents.json"))
            #expect(sandbox.temporaryFiles("OUT").isEmpty)
        }
    }

    @Test("A build killed while writing the catalog is cleaned up after: its files no ledger names and its temporary files go")
    func killedBuild() throws {
        try Sandbox.with { sandbox in
            // Given a built catalog in which a killed build left its note, a file for a card it never
            // finished, and temporary files
            let before = try Self.builtCatalog(in: sandbox)
            try sandbox.write("ghost.imageset/Contents.json\nmid-cat.imageset/Contents.json\n",
                              to: "OUT/Cards.xcassets/.cardbake-unfinished")
            try sandbox.write("{}\n", to: "OUT/Cards.xcassets/ghost.imageset/Contents.json")
            try sandbox.write("half", to: "OUT/Cards.xcassets/mid-cat.imageset/.tmp-1-ab")
            try sandbox.write("half", to: "OUT/Cards.xcassets/.tmp-2-cd")

            // When the next build runs
            #expect(try sandbox.run(Self.build).status == 0)

            // Then the catalog is as the last complete build left it
            Self.expectFilesUnchanged(before, sandbox.listing("OUT/Cards.xcassets"))
        }
    }

    @Test("Bad destinations and formats are refused with exit 2 before anything renders",
          arguments: [
              (["--xcassets", "OUT/cards/Cards.xcassets"], "overlaps the output folder"),
              (["--xcassets", "OUT"], "overlaps the output folder"),
              (["--xcassets", "afile/Cards.xcassets"], "is not a folder"),
              (["--xcassets", "OUT/Cards.xcassets", "--format", "webp"], "which an Xcode asset catalog cannot hold"),
              (["--xcassets", "OUT/Cards.xcassets", "--format", "avif"], "which an Xcode asset catalog cannot hold"),
          ])
    func refused(_ flags: [String], message: String) throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(threeCards)
            try sandbox.write("not a folder", to: "afile")
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"] + flags)
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("error: ") && result.stderr.contains(message), result.comment)
            #expect(!sandbox.exists("OUT/cards"), "nothing was rendered")
        }
    }

    @Test("An image set of a card's name that cardbake did not write is refused, and left as it was")
    func foreignImageSet() throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog(threeCards)
            try sandbox.write("{}\n", to: "OUT/Cards.xcassets/mid-cat.imageset/Contents.json")
            let result = try sandbox.run(Self.build)
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains("mid-cat.imageset was not written by cardbake"), result.comment)
            #expect(String(decoding: try sandbox.data("OUT/Cards.xcassets/mid-cat.imageset/Contents.json"), as: UTF8.self) == "{}\n")
            #expect(!sandbox.exists("OUT/cards"), "nothing was rendered")
        }
    }

    @Test("A catalog with locales: each image set lists every locale's images with their locale key, as Xcode writes them, the source locale's with none")
    func localized() throws {
        try Sandbox.with { sandbox in
            try sandbox.copyImage("coffee.jpg")
            try sandbox.write(#"""
                {"version": 1, "locales": ["en", "ar", "pt-BR"], "style": {"scales": [1, 2]}, "cards": [
                  {"id": "coffee", "image": "images/coffee.jpg", "title": {"en": "Coffee", "ar": "قهوة", "pt-BR": "Café"}, "description": ""}
                ]}
                """#, to: "catalog.json")

            let result = try sandbox.run(Self.build)

            #expect(result.status == 0, result.comment)
            let set = "OUT/Cards.xcassets/coffee.imageset"
            func slot(_ file: String, _ scale: String, locale: String? = nil) -> String {
                let locale = locale.map { "\n      \"locale\" : \"\($0)\"," } ?? ""
                return "    {\n      \"filename\" : \"\(file)\",\n      \"idiom\" : \"universal\",\(locale)\n      \"scale\" : \"\(scale)\"\n    }"
            }
            let slots = [slot("coffee@1x.jpg", "1x"), slot("coffee@2x.jpg", "2x"),
                         slot("coffee-ar@1x.jpg", "1x", locale: "ar"), slot("coffee-ar@2x.jpg", "2x", locale: "ar"),
                         slot("coffee-pt-BR@1x.jpg", "1x", locale: "pt-BR"), slot("coffee-pt-BR@2x.jpg", "2x", locale: "pt-BR")]
            #expect(String(decoding: try sandbox.data("\(set)/Contents.json"), as: UTF8.self) == """
                {
                  "images" : [
                \(slots.joined(separator: ",\n"))
                  ],
                  "info" : {
                    "author" : "xcode",
                    "version" : 1
                  }
                }

                """)
            // Each listed file is the locale's bitmap in the output folder.
            for (name, output) in [("coffee-ar@2x.jpg", "cards/ar/coffee@2x.jpg"), ("coffee-pt-BR@1x.jpg", "cards/pt-BR/coffee@1x.jpg"),
                                   ("coffee@2x.jpg", "cards/coffee@2x.jpg")] {
                #expect(try sandbox.data("\(set)/\(name)") == (try sandbox.data("OUT/\(output)")), "\(name)")
            }
            #expect(try sandbox.data("\(set)/coffee-ar@2x.jpg") != (try sandbox.data("\(set)/coffee@2x.jpg")))
            #expect(try sandbox.run(Self.check).status == 0)
        }
    }

    @Test("HEIC cards go into the catalog as the same files")
    func heic() throws {
        try Sandbox.with { sandbox in
            try sandbox.writeCatalog([threeCards[2]], style: ["scales": [1], "format": "heic", "cardWidth": 120, "textAreaHeight": 80])
            let result = try sandbox.run(Self.build)
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT/Cards.xcassets/mid-cat.imageset") == ["Contents.json", "mid-cat@1x.heic"])
            #expect(try sandbox.data("OUT/Cards.xcassets/mid-cat.imageset/mid-cat@1x.heic") == (try sandbox.data("OUT/cards/mid-cat@1x.heic")))
        }
    }
}
