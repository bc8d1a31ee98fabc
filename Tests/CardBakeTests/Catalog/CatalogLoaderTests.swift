import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite struct CatalogLoaderTests {
    private let folder = URL(fileURLWithPath: "/catalogs/Input", isDirectory: true)

    @Test func minimalCatalogHasDefaultStyleAndNoCards() throws {
        let json = #"{"version": 1, "cards": []}"#
        let catalog = try CatalogFixture.decode(json)
        #expect(catalog == Catalog(file: CatalogFixture.file, style: CardStyle(), cards: [], digest: .sha256(Data(json.utf8))))
    }

    @Test func minimalCardIsResolved() throws {
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog())
        let expected = Card(id: "toucan", image: URL(fileURLWithPath: "/catalogs/Input/toucan.png"),
                            title: "Toucan", description: "A bird.", style: CardStyle(), index: 0)
        #expect(catalog.cards == [expected])
    }

    @Test("Cards without a style block share the catalog's style, and each card's style is still a value of its own")
    func cardsShareTheCatalogStyle() throws {
        let cards = [CatalogFixture.card(id: "a"), CatalogFixture.card(id: "b"),
                     CatalogFixture.card(id: "c", extra: #""style": {"scales": [2]}"#)]
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog(cards: cards))
        #expect(catalog.cards[0].sharedStyle === catalog.cards[1].sharedStyle)
        #expect(catalog.cards[2].sharedStyle !== catalog.cards[0].sharedStyle)
        #expect(catalog.cards[2].style.scales == [2])

        var edited = catalog.cards[0]
        edited.style.scales = [1]
        #expect(edited.style.scales == [1])
        #expect(catalog.cards[1].style.scales == [1, 2, 3])
        #expect(edited != catalog.cards[0])
        edited.style.scales = [1, 2, 3]
        #expect(edited == catalog.cards[0], "equal styles held apart compare equal")
    }

    @Test func everyStyleKeyIsApplied() throws {
        let style = """
        {
          "cardWidth": 400.5, "textAreaHeight": 0, "maxFeatureHeight": 1000.5, "scales": [3, 1, 2.0],
          "format": "webp", "quality": 70, "compression": 9, "pngFilter": "paeth",
          "blur": {"radius": 0, "saturation": 4, "tint": "#10203040"},
          "title": {"font": "Lato Black", "fontFile": "fonts/Lato-Black.ttf", "size": 200, "color": "#ff0000",
                    "shadow": {"color": "#00000080", "offset": {"x": -100, "y": 100}, "radius": 0}},
          "description": {"font": "Inter", "size": 1, "color": "#00FF00", "shadow": null},
          "border": {"width": 100, "color": "#0000ff"}
        }
        """
        let resolved = try CatalogFixture.decode(CatalogFixture.catalog(style: style)).style

        var expected = CardStyle()
        expected.cardWidth = 400.5
        expected.textAreaHeight = 0
        expected.maxFeatureHeight = 1000.5
        expected.scales = [1, 2, 3]
        expected.output.kind = .webp
        expected.output.quality = 70
        expected.output.pngCompression = 9
        expected.output.pngFilter = .paeth
        expected.blur.radius = 0
        expected.blur.saturation = 4
        expected.blur.tint = CardColor(red: 0x10, green: 0x20, blue: 0x30, alpha: Double(0x40) / 255)
        expected.title = TextStyle(font: "Lato Black", fontFile: folder.appendingPathComponent("fonts/Lato-Black.ttf"),
                                   size: 200, color: CardColor(red: 255, green: 0, blue: 0),
                                   shadow: ShadowStyle(color: CardColor(red: 0, green: 0, blue: 0, alpha: 128.0 / 255),
                                                       offsetX: -100, offsetY: 100, radius: 0))
        expected.description = TextStyle(font: "Inter", size: 1, color: CardColor(red: 0, green: 255, blue: 0), shadow: nil)
        expected.border.width = 100
        expected.border.color = CardColor(red: 0, green: 0, blue: 255)
        #expect(resolved == expected)
    }

    @Test(arguments: [
        ("toucan.png", "/catalogs/Input/toucan.png"),
        ("images/./birds/../toucan.png", "/catalogs/Input/images/toucan.png"),
        ("../Shared/toucan.png", "/catalogs/Shared/toucan.png"),
        ("/absolute/toucan.png", "/absolute/toucan.png"),
        ("/absolute/../toucan.png", "/toucan.png"),
        ("with space/tou can.png", "/catalogs/Input/with space/tou can.png"),
        ("#1 & ü?.png", "/catalogs/Input/#1 & ü?.png"),
        ("a//b/./c/.", "/catalogs/Input/a/b/c"),
        ("../../../../up.png", "/up.png"),
        ("..", "/catalogs"),
    ])
    func imagePathsAreRelativeToTheCatalogFolder(image: String, expectedPath: String) throws {
        let card = #"{"id": "a", "image": \#(MessageText.quoted(image, limit: .max)), "title": "", "description": ""}"#
        let resolved = try #require(try CatalogFixture.decode(CatalogFixture.catalog(cards: [card])).cards.first).image
        #expect(resolved.isFileURL)
        #expect(resolved.path == expectedPath)
        #expect(resolved == URL(fileURLWithPath: expectedPath))
    }

    @Test func relativeCatalogLocationResolvesAgainstTheWorkingDirectory() throws {
        let file = URL(fileURLWithPath: "Input/catalog.json")
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog(), file: file)
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        #expect(catalog.file == file)
        #expect(catalog.cards.first?.image.path == workingDirectory.appendingPathComponent("Input/toucan.png").standardizedFileURL.path)
    }

    @Test func cardStyleIsAppliedOverTheCatalogStyle() throws {
        let json = CatalogFixture.catalog(cards: [
            CatalogFixture.card(id: "plain"),
            CatalogFixture.card(id: "styled", extra: #"""
            "style": {"cardWidth": 200, "title": {"size": 40, "shadow": {"radius": 5}, "fontFile": null},
                      "description": {"shadow": {"offset": {"y": 4}}}, "blur": {"tint": "#FFFFFF"}}
            """#),
        ], style: #"""
            {"cardWidth": 300, "format": "jpeg", "title": {"color": "#123456", "shadow": null, "fontFile": "/f/Title.otf"},
             "description": {"shadow": {"offset": {"x": 7}}}}
            """#)
        let catalog = try CatalogFixture.decode(json)

        var catalogStyle = CardStyle()
        catalogStyle.cardWidth = 300
        catalogStyle.output.kind = .jpeg
        catalogStyle.title.color = CardColor(red: 0x12, green: 0x34, blue: 0x56)
        catalogStyle.title.shadow = nil
        catalogStyle.title.fontFile = URL(fileURLWithPath: "/f/Title.otf")
        catalogStyle.description.shadow = ShadowStyle(offsetX: 7, offsetY: 1)
        #expect(catalog.style == catalogStyle)
        #expect(catalog.cards.first?.style == catalogStyle)

        var cardStyle = catalogStyle
        cardStyle.cardWidth = 200
        cardStyle.title.size = 40
        cardStyle.title.shadow = ShadowStyle(radius: 5)  // the catalog removed the shadow, so it starts from the default
        cardStyle.title.fontFile = nil
        cardStyle.description.shadow = ShadowStyle(offsetX: 7, offsetY: 4)
        cardStyle.blur.tint = .white
        #expect(catalog.cards.last?.style == cardStyle)
    }

    @Test("Weight and italic layer key by key: a card's block keeps what it does not set, null takes the face's own weight")
    func weightAndItalicLayer() throws {
        let json = CatalogFixture.catalog(cards: [
            CatalogFixture.card(id: "plain"),
            CatalogFixture.card(id: "italic", extra: #""style": {"title": {"italic": true}, "description": {"weight": null}}"#),
            CatalogFixture.card(id: "upright", extra: #""style": {"title": {"weight": "normal", "italic": false, "font": "Lato"}}"#),
        ], style: #"{"title": {"weight": 900}, "description": {"weight": "bold", "italic": true}}"#)
        let cards = try CatalogFixture.decode(json).cards
        let styles = cards.map { ($0.style.title.weight, $0.style.title.italic, $0.style.description.weight, $0.style.description.italic) }
        #expect(styles[0] == (900, false, 700, true))
        #expect(styles[1] == (900, true, nil, true))
        #expect(styles[2] == (400, false, 700, true))
        #expect(cards[2].style.title.fontRequest == FontRequest(.family("Lato"), weight: 400))
        #expect(cards[0].style.title.fontRequest.description == "family:Lato Heavy weight:900")
        #expect(cards[1].style.description.fontRequest.description == "family:Lato Medium italic")
        #expect(CardStyle().title.fontRequest.description == "family:Lato Heavy")
    }

    @Test func textIsPreservedExactly() throws {
        let texts = [
            #"Fish & Chips <b>bold</b> "quoted" 'single' \back\slash"#,
            "Emoji 🦜👩‍👩‍👧🏳️‍🌈 flags 🇨🇭",
            "RTL: שלום עולם مرحبا بالعالم",
            "CJK: 漢字かなカナ한국어",
            "Combining: e\u{301} vs \u{E9}, a\u{308}\u{304}, Z\u{351}\u{36B}",
            "   leading and trailing spaces   ",
        ]
        let cards = texts.enumerated().map { index, text in
            #"{"id": "c\#(index)", "image": "x.png", "title": \#(MessageText.quoted(text, limit: .max)), "description": \#(MessageText.quoted(text + "\n\t" + text, limit: .max))}"#
        }
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog(cards: cards))
        // Compare scalars: String's == treats "e\u{301}" and "\u{E9}" as equal.
        #expect(catalog.cards.map { Array($0.title.unicodeScalars) } == texts.map { Array($0.unicodeScalars) })
        #expect(catalog.cards.map { Array($0.description.unicodeScalars) } == texts.map { Array(($0 + "\n\t" + $0).unicodeScalars) })
    }

    @Test(arguments: ["a", "0", "a.b_c-d", "x..y", "a-", String(repeating: "z", count: 100)])
    func acceptsSafeIDs(id: String) throws {
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog(cards: [CatalogFixture.card(id: id)]))
        #expect(catalog.cards.map(\.id) == [id])
    }

    @Test func acceptsEmptyTextsAndVersionWrittenAsOnePointZero() throws {
        let card = #"{"id": "a", "image": "a.png", "title": "", "description": ""}"#
        let catalog = try CatalogFixture.decode(#"{"cards": [\#(card)], "version": 1.0}"#)
        #expect(catalog.cards.map(\.title) == [""])
    }

    @Test func cardsKeepCatalogOrderAndIndex() throws {
        let ids = ["c", "a", "b"]
        let catalog = try CatalogFixture.decode(CatalogFixture.catalog(cards: ids.map { CatalogFixture.card(id: $0) }))
        #expect(catalog.cards.map(\.id) == ids)
        #expect(catalog.cards.map(\.index) == [0, 1, 2])
    }

    @Test func loadsFromAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardbake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("catalog.json")
        try Data(CatalogFixture.catalog().utf8).write(to: file)

        let catalog = try CatalogLoader.load(from: file)
        #expect(catalog.file == file)
        #expect(catalog.cards.first?.image == folder.appendingPathComponent("toucan.png").standardizedFileURL)
    }

    @Test func missingFileIsUnreadable() {
        let file = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/catalog.json")
        #expect(throws: CatalogError.unreadable(file: file, reason: "No such file or directory")) {
            try CatalogLoader.load(from: file)
        }
        #expect(CatalogError.unreadable(file: URL(fileURLWithPath: "Input/catalog.json"), reason: "No such file or directory").description
            == "Input/catalog.json: cannot read the catalog: No such file or directory.")
    }

    @Test func directoryIsUnreadable() {
        let file = FileManager.default.temporaryDirectory
        #expect(throws: CatalogError.unreadable(file: file, reason: "Is a directory")) {
            try CatalogLoader.load(from: file)
        }
    }
}
