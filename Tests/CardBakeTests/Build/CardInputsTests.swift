import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing

@Suite("Card keys")
struct CardInputsTests {
    static let image = ContentDigest.sha256(Data("image".utf8))
    static let fontFile = ResolvedFont(family: "Lato Heavy", file: URL(fileURLWithPath: "/fonts/a.ttf"),
                                       digest: ContentDigest.sha256(Data("font".utf8)))
    static let fonts = ResolvedFonts(title: fontFile, description: fontFile)

    static func card(_ change: (inout Card) -> Void = { _ in }) -> Card {
        var card = Card(id: "toucan", image: URL(fileURLWithPath: "/catalog/images/toucan.jpg"),
                        title: "Keel-billed Toucan", description: "A bird.", style: CardStyle(), index: 0)
        change(&card)
        return card
    }

    static func inputs(_ card: Card = card(), image: ContentDigest = image, fonts: ResolvedFonts = fonts) -> CardInputs {
        CardInputs(imageDigest: image, card: card, fonts: fonts)
    }

    /// One change to each value a card's pixels or encoding depend on.
    static let styleChanges: [(String, @Sendable (inout CardStyle) -> Void)] = [
        ("cardWidth", { $0.cardWidth = 321 }),
        ("textAreaHeight", { $0.textAreaHeight = 299 }),
        ("maxFeatureHeight", { $0.maxFeatureHeight = 959 }),
        ("format", { $0.output.kind = .webp }),
        ("quality", { $0.output.quality = 84 }),
        ("compression", { $0.output.pngCompression = 9 }),
        ("pngFilter", { $0.output.pngFilter = .none }),
        ("blur.radius", { $0.blur.radius = 29.5 }),
        ("blur.saturation", { $0.blur.saturation = 1.7 }),
        ("blur.tint", { $0.blur.tint.alpha = 0.31 }),
        ("title.size", { $0.title.size = 31 }),
        ("title.color", { $0.title.color = CardColor(red: 254, green: 255, blue: 255) }),
        ("title.shadow.color", { $0.title.shadow?.color.alpha = 0.4 }),
        ("title.shadow.offsetX", { $0.title.shadow?.offsetX = 1 }),
        ("title.shadow.offsetY", { $0.title.shadow?.offsetY = 3 }),
        ("title.shadow.radius", { $0.title.shadow?.radius = 4 }),
        ("title.shadow removed", { $0.title.shadow = nil }),
        ("description.size", { $0.description.size = 15 }),
        ("description.color", { $0.description.color = .black }),
        ("description.shadow removed", { $0.description.shadow = nil }),
        ("border.width", { $0.border.width = 2 }),
        ("border.color", { $0.border.color = .white }),
    ]

    @Test("The same inputs give the same keys")
    func stable() {
        #expect(Self.inputs() == Self.inputs())
        #expect(Self.inputs().cardKey(scales: [1, 2, 3]) == Self.inputs().cardKey(scales: [1, 2, 3]))
        #expect(Self.inputs().imageKey(scale: 2) == Self.inputs().imageKey(scale: 2))
    }

    @Test("Changing any style value changes the card and image keys", arguments: styleChanges.map(\.0))
    func styleSensitivity(name: String) throws {
        let change = try #require(Self.styleChanges.first { $0.0 == name }?.1)
        let changed = Self.inputs(Self.card { change(&$0.style) })
        #expect(changed.style != Self.inputs().style)
        #expect(changed.cardKey(scales: [1, 2, 3]) != Self.inputs().cardKey(scales: [1, 2, 3]))
        #expect(changed.imageKey(scale: 1) != Self.inputs().imageKey(scale: 1))
    }

    @Test("maxFeatureHeight written as its default, 3 × cardWidth, keeps the keys: they follow the cap in effect")
    func defaultFeatureHeightLimit() {
        #expect(Self.inputs(Self.card { $0.style.maxFeatureHeight = 960 }) == Self.inputs())
    }

    @Test("Image content, title, description and font files change the keys")
    func contentSensitivity() {
        let base = Self.inputs()
        let otherFont = ResolvedFont(family: "Lato Heavy", file: Self.fontFile.file, digest: ContentDigest.sha256(Data("font v2".utf8)))
        let otherFamily = ResolvedFont(family: "Lato Black", file: Self.fontFile.file, digest: Self.fontFile.digest)
        let variants = [
            Self.inputs(image: ContentDigest.sha256(Data("other image".utf8))),
            Self.inputs(Self.card { $0.title = "Keel-billed Toucan!" }),
            Self.inputs(Self.card { $0.description = "A bird!" }),
            Self.inputs(fonts: ResolvedFonts(title: otherFont, description: Self.fontFile)),
            Self.inputs(fonts: ResolvedFonts(title: Self.fontFile, description: otherFont)),
            Self.inputs(fonts: ResolvedFonts(title: otherFamily, description: Self.fontFile)),
        ]
        for variant in variants {
            #expect(variant.imageKey(scale: 1) != base.imageKey(scale: 1))
        }
        #expect(Set(variants.map { $0.imageKey(scale: 1) }).count == variants.count)
    }

    @Test("Moving title text into the description changes the key")
    func textBoundary() {
        let a = Self.inputs(Self.card { $0.title = "ab"; $0.description = "c" })
        let b = Self.inputs(Self.card { $0.title = "a"; $0.description = "bc" })
        #expect(a.text != b.text)
    }

    @Test("Scale changes the image key; the list of scales changes only the card key")
    func scales() {
        let inputs = Self.inputs()
        #expect(inputs.imageKey(scale: 1) != inputs.imageKey(scale: 2))
        #expect(inputs.cardKey(scales: [1, 2]) != inputs.cardKey(scales: [1, 2, 3]))
        var fewer = CardStyle()
        fewer.scales = [2]
        #expect(Self.inputs(Self.card { $0.style = fewer }).imageKey(scale: 2) == inputs.imageKey(scale: 2))
    }

    @Test("Nothing that leaves the pixels alone changes a key: id, position, image path, font path")
    func insensitivity() {
        let moved = Self.inputs(Self.card {
            $0.id = "other-id"
            $0.index = 7
            $0.image = URL(fileURLWithPath: "/elsewhere/copy.jpg")
        })
        #expect(moved == Self.inputs())
        let relocatedFont = ResolvedFont(family: "Lato Heavy", file: URL(fileURLWithPath: "/other/a.ttf"), digest: Self.fontFile.digest)
        #expect(Self.inputs(fonts: ResolvedFonts(title: relocatedFont, description: relocatedFont)) == Self.inputs())
    }

    @Test("The background key depends on image, size and blur, not on text, fonts or encoder")
    func backgroundKey() {
        func key(_ change: (inout CardStyle) -> Void = { _ in }, image: ContentDigest = CardInputsTests.image,
                 cardHeight: Double = 514) -> ContentDigest {
            var style = CardStyle()
            change(&style)
            return BackgroundEffect(blur: style.blur, cardWidth: style.cardWidth, cardHeight: cardHeight, maxScale: 3)
                .key(imageDigest: image, textAreaHeight: style.textAreaHeight)
        }
        let base = key()
        #expect(key(image: ContentDigest.sha256(Data("x".utf8))) != base)
        #expect(key { $0.cardWidth = 300 } != base)
        #expect(key(cardHeight: 600) != base)
        #expect(key { $0.textAreaHeight = 200 } != base)
        #expect(key { $0.blur.radius = 20 } != base)
        #expect(key { $0.blur.saturation = 1 } != base)
        #expect(key { $0.blur.tint = .white } != base)
        #expect(key { $0.title.size = 40 } == base)
        #expect(key { $0.output.kind = .jpeg } == base)
        #expect(key { $0.border.width = 3 } == base)
    }
}
