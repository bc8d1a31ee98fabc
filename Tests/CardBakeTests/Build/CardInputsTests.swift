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
    static let fontFile = ResolvedFont(family: "Lato Heavy", weight: 800, italic: false,
                                       file: URL(fileURLWithPath: "/fonts/a.ttf"), digest: ContentDigest.sha256(Data("font".utf8)))
    static let fonts = ResolvedFonts(title: fontFile, description: fontFile)

    static func card(_ change: (inout Card) -> Void = { _ in }) -> Card {
        var card = Card(id: "toucan", image: URL(fileURLWithPath: "/catalog/images/toucan.jpg"),
                        title: "Keel-billed Toucan", description: "A bird.", style: CardStyle(), index: 0)
        change(&card)
        return card
    }

    static let drawnFonts = DrawnFonts(title: [FontFile(file: fontFile.file, digest: fontFile.digest)],
                                       description: [FontFile(file: fontFile.file, digest: fontFile.digest)])

    static func inputs(_ card: Card = card(), image: ContentDigest = image, fonts: ResolvedFonts = fonts,
                       drawnFonts: DrawnFonts = drawnFonts) -> CardInputs {
        CardInputs(imageDigest: image, card: card, fonts: fonts, drawnFonts: drawnFonts)
    }

    /// A change to one stored property of a style (the fonts it resolves to follow the font it asks for).
    struct StyleChange: Sendable, CustomTestStringConvertible {
        /// The property's path, as ``StoredProperties`` names it.
        let testDescription: String
        /// False for `scales`: they change the card's key but not the key of any one bitmap.
        let changesImageKey: Bool
        /// The style the change is made to: the default one, or one whose format reads the property.
        let base: CardStyle
        let apply: @Sendable (inout CardStyle, inout ResolvedFonts) -> Void

        init(_ path: String, changesImageKey: Bool = true, base: CardStyle = CardStyle(),
             _ apply: @escaping @Sendable (inout CardStyle, inout ResolvedFonts) -> Void) {
            testDescription = path
            self.changesImageKey = changesImageKey
            self.base = base
            self.apply = apply
        }

        init(_ path: String, changesImageKey: Bool = true, base: CardStyle = CardStyle(),
             _ apply: @escaping @Sendable (inout CardStyle) -> Void) {
            self.init(path, changesImageKey: changesImageKey, base: base) { style, _ in apply(&style) }
        }
    }

    /// One change to every stored property of a style, at any depth, and the removal of each shadow.
    static let styleChanges: [StyleChange] = {
        var png = CardStyle()
        png.output.kind = .png
        var changes = [
            StyleChange("cardWidth") { $0.cardWidth = 321 },
            StyleChange("textAreaHeight") { $0.textAreaHeight = 299 },
            StyleChange("maxFeatureHeight") { $0.maxFeatureHeight = 959 },
            StyleChange("minFeatureHeight") { $0.minFeatureHeight = 99 },
            StyleChange("scales", changesImageKey: false) { $0.scales = [1, 2] },
            StyleChange("output.kind") { $0.output.kind = .webp },
            StyleChange("output.quality") { $0.output.quality = 84 },
            StyleChange("output.pngCompression", base: png) { $0.output.pngCompression = 9 },
            StyleChange("output.pngFilter", base: png) { $0.output.pngFilter = .none },
            StyleChange("blur.radius") { $0.blur.radius = 29.5 },
            StyleChange("blur.saturation") { $0.blur.saturation = 1.7 },
            StyleChange("border.width") { $0.border.width = 2 },
        ]
        let ownFont = ResolvedFont(family: "Own", weight: 400, italic: false,
                                   file: URL(fileURLWithPath: "/catalog/fonts/own.ttf"), digest: ContentDigest.sha256(Data("own font".utf8)))
        let texts: [(String, WritableKeyPath<CardStyle, TextStyle> & Sendable,
                     @Sendable (ResolvedFonts, ResolvedFont) -> ResolvedFonts)] = [
            ("title", \.title, { ResolvedFonts(title: $1, description: $0.description) }),
            ("description", \.description, { ResolvedFonts(title: $0.title, description: $1) }),
        ]
        for (name, text, resolving) in texts {
            changes += [
                StyleChange("\(name).font") { style, fonts in
                    style[keyPath: text].font = "Lato Black"
                    fonts = resolving(fonts, ResolvedFont(family: "Lato Black", weight: 900, italic: false,
                                                          file: fontFile.file, digest: fontFile.digest))
                },
                StyleChange("\(name).weight") { style, fonts in
                    style[keyPath: text].weight = 400
                    fonts = resolving(fonts, ResolvedFont(family: "Lato", weight: 400, italic: false,
                                                          file: fontFile.file, digest: fontFile.digest))
                },
                StyleChange("\(name).italic") { style, fonts in
                    style[keyPath: text].italic = true
                    fonts = resolving(fonts, ResolvedFont(family: "Lato", weight: 800, italic: true,
                                                          file: fontFile.file, digest: fontFile.digest))
                },
                StyleChange("\(name).fontFile") { style, fonts in
                    style[keyPath: text].fontFile = ownFont.file
                    fonts = resolving(fonts, ownFont)
                },
                StyleChange("\(name).size") { $0[keyPath: text].size += 1 },
                StyleChange("\(name).shadow.offsetX") { $0[keyPath: text].shadow?.offsetX += 1 },
                StyleChange("\(name).shadow.offsetY") { $0[keyPath: text].shadow?.offsetY += 1 },
                StyleChange("\(name).shadow.radius") { $0[keyPath: text].shadow?.radius += 1 },
                StyleChange("\(name).shadow removed") { $0[keyPath: text].shadow = nil },
            ]
        }
        let colours: [(String, WritableKeyPath<CardStyle, CardColor> & Sendable)] = [
            ("blur.tint", \.blur.tint), ("title.color", \.title.color), ("title.shadow.color", \.title.shadow!.color),
            ("description.color", \.description.color), ("description.shadow.color", \.description.shadow!.color),
            ("border.color", \.border.color),
        ]
        for (name, colour) in colours {
            changes += [
                StyleChange("\(name).red") { $0[keyPath: colour].red ^= 1 },
                StyleChange("\(name).green") { $0[keyPath: colour].green ^= 1 },
                StyleChange("\(name).blue") { $0[keyPath: colour].blue ^= 1 },
                StyleChange("\(name).alpha") { $0[keyPath: colour].alpha /= 2 },
            ]
        }
        return changes
    }()

    @Test("A setting the format does not read changes no key; a JPEG's unset quality is not its default's number")
    func outputSettingsInKeys() {
        func key(_ change: (inout OutputFormat) -> Void) -> ContentDigest {
            Self.inputs(Self.card { change(&$0.style.output) }).imageKey(scale: 1, of: [1])
        }
        #expect(key { $0.pngCompression = 9 } == key { _ in })
        #expect(key { $0.kind = .png; $0.quality = 50 } == key { $0.kind = .png })
        #expect(key { $0.quality = 90 } != key { _ in })
        #expect(key { $0.kind = .webp; $0.pngFilter = .none } == key { $0.kind = .webp })
    }

    @Test("The same inputs give the same keys")
    func stable() {
        #expect(Self.inputs() == Self.inputs())
        #expect(Self.inputs().cardKey(scales: [1, 2, 3]) == Self.inputs().cardKey(scales: [1, 2, 3]))
        #expect(Self.inputs().imageKey(scale: 2, of: [1, 2, 3]) == Self.inputs().imageKey(scale: 2, of: [1, 2, 3]))
    }

    @Test("Every stored property of a style, at any depth, has a change in styleChanges")
    func everyStylePropertyIsChanged() {
        let paths = StoredProperties.leafPaths(of: CardStyle(), walking: ["CardBakeCatalog."])
        let changed = Set(Self.styleChanges.map(\.testDescription))
        #expect(paths.contains("description.shadow.color.alpha"))
        #expect(paths.filter { !changed.contains($0) } == [])
    }

    @Test("Changing any style value changes the card key, and the image keys unless it is the scales",
          arguments: styleChanges)
    func styleSensitivity(change: StyleChange) {
        var style = change.base
        var fonts = Self.fonts
        change.apply(&style, &fonts)
        let base = Self.inputs(Self.card { $0.style = change.base })
        let changed = Self.inputs(Self.card { $0.style = style }, fonts: fonts)
        #expect(changed.cardKey(scales: style.scales) != base.cardKey(scales: change.base.scales))
        // A font enters as it resolves, in the fonts digest; every other value in the style digest.
        #expect((changed.style != base.style || changed.fonts != base.fonts) == change.changesImageKey)
        #expect((changed.imageKey(scale: 1, of: [1, 2, 3]) != base.imageKey(scale: 1, of: [1, 2, 3])) == change.changesImageKey)
    }

    @Test("A font enters the keys as it resolves: asking for the same font by another name or path keeps them")
    func fontRequest() {
        let asked = Self.inputs(Self.card {
            $0.style.title.font = "Lato Black"
            $0.style.description.fontFile = URL(fileURLWithPath: "/catalog/fonts/a.ttf")
        })
        #expect(asked == Self.inputs())
    }

    @Test("maxFeatureHeight written as its default, 3 × cardWidth, keeps the keys: they follow the cap in effect")
    func defaultFeatureHeightLimit() {
        #expect(Self.inputs(Self.card { $0.style.maxFeatureHeight = 960 }) == Self.inputs())
    }

    @Test("Image content, title, description and font files change the keys")
    func contentSensitivity() {
        let base = Self.inputs()
        let fontFile = Self.fontFile
        let otherFont = ResolvedFont(family: "Lato Heavy", weight: 800, italic: false, file: fontFile.file,
                                     digest: ContentDigest.sha256(Data("font v2".utf8)))
        let otherFamily = ResolvedFont(family: "Lato Black", weight: 800, italic: false, file: fontFile.file, digest: fontFile.digest)
        // The same face asked at another weight or slant: its fallback fonts for other scripts differ.
        let otherWeight = ResolvedFont(family: "Lato Heavy", weight: 900, italic: false, file: fontFile.file, digest: fontFile.digest)
        let otherSlant = ResolvedFont(family: "Lato Heavy", weight: 800, italic: true, file: fontFile.file, digest: fontFile.digest)
        let variants = [
            Self.inputs(image: ContentDigest.sha256(Data("other image".utf8))),
            Self.inputs(Self.card { $0.title = "Keel-billed Toucan!" }),
            Self.inputs(Self.card { $0.description = "A bird!" }),
            Self.inputs(fonts: ResolvedFonts(title: otherFont, description: Self.fontFile)),
            Self.inputs(fonts: ResolvedFonts(title: Self.fontFile, description: otherFont)),
            Self.inputs(fonts: ResolvedFonts(title: otherFamily, description: Self.fontFile)),
            Self.inputs(fonts: ResolvedFonts(title: otherWeight, description: Self.fontFile)),
            Self.inputs(fonts: ResolvedFonts(title: otherSlant, description: Self.fontFile)),
        ]
        for variant in variants {
            #expect(variant.imageKey(scale: 1, of: [1, 2, 3]) != base.imageKey(scale: 1, of: [1, 2, 3]))
        }
        #expect(Set(variants.map { $0.imageKey(scale: 1, of: [1, 2, 3]) }).count == variants.count)
    }

    @Test("Moving title text into the description changes the key")
    func textBoundary() {
        let a = Self.inputs(Self.card { $0.title = "ab"; $0.description = "c" })
        let b = Self.inputs(Self.card { $0.title = "a"; $0.description = "bc" })
        #expect(a.text != b.text)
    }

    @Test("Scale and the largest scale change the image key; the list of scales changes the card key")
    func scales() {
        let inputs = Self.inputs()
        #expect(inputs.imageKey(scale: 1, of: [1, 2, 3]) != inputs.imageKey(scale: 2, of: [1, 2, 3]))
        #expect(inputs.cardKey(scales: [1, 2]) != inputs.cardKey(scales: [1, 2, 3]))
        // The source is decoded for the largest scale: dropping 3x changes the 1x bitmap's key, dropping 2x does not.
        #expect(inputs.imageKey(scale: 1, of: [1, 2]) != inputs.imageKey(scale: 1, of: [1, 2, 3]))
        #expect(inputs.imageKey(scale: 1, of: [1, 3]) == inputs.imageKey(scale: 1, of: [1, 2, 3]))
    }

    @Test("Every font file the text is drawn from, fallbacks included, changes the fonts digest and the keys")
    func drawnFonts() {
        let fallback = FontFile(file: URL(fileURLWithPath: "/fonts/emoji.ttf"), digest: ContentDigest.sha256(Data("emoji".utf8)))
        let updated = FontFile(file: fallback.file, digest: ContentDigest.sha256(Data("emoji v2".utf8)))
        let primary = Self.drawnFonts.title
        let base = Self.inputs()
        let withFallback = Self.inputs(drawnFonts: DrawnFonts(title: primary + [fallback], description: primary))
        let withUpdated = Self.inputs(drawnFonts: DrawnFonts(title: primary + [updated], description: primary))
        let inDescription = Self.inputs(drawnFonts: DrawnFonts(title: primary, description: primary + [fallback]))
        #expect(Set([base.fonts, withFallback.fonts, withUpdated.fonts, inDescription.fonts]).count == 4)
        #expect(base.differences(from: withFallback) == [.fonts])
        #expect(withFallback.imageKey(scale: 1, of: [1]) != base.imageKey(scale: 1, of: [1]))
        // The content counts, not the path.
        let moved = FontFile(file: URL(fileURLWithPath: "/elsewhere/emoji.ttf"), digest: fallback.digest)
        #expect(Self.inputs(drawnFonts: DrawnFonts(title: primary + [moved], description: primary)) == withFallback)
    }

    @Test("Nothing that leaves the pixels alone changes a key: id, position, image path, font path")
    func insensitivity() {
        let moved = Self.inputs(Self.card {
            $0.id = "other-id"
            $0.index = 7
            $0.image = URL(fileURLWithPath: "/elsewhere/copy.jpg")
        })
        #expect(moved == Self.inputs())
        let relocatedFont = ResolvedFont(family: "Lato Heavy", weight: 800, italic: false, file: URL(fileURLWithPath: "/other/a.ttf"),
                                         digest: Self.fontFile.digest)
        #expect(Self.inputs(fonts: ResolvedFonts(title: relocatedFont, description: relocatedFont)) == Self.inputs())
    }

    @Test("The background key depends on image, size, blur and the largest scale, not on text, fonts or encoder")
    func backgroundKey() {
        func key(_ change: (inout CardStyle) -> Void = { _ in }, image: ContentDigest = CardInputsTests.image,
                 cardHeight: Double = 514, maxScale: Int = 3) -> ContentDigest {
            var style = CardStyle()
            change(&style)
            return BackgroundEffect(blur: style.blur, cardWidth: style.cardWidth, cardHeight: cardHeight, maxScale: maxScale)
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
        #expect(key(maxScale: 2) != base)
        #expect(key { $0.title.size = 40 } == base)
        #expect(key { $0.output.kind = .jpeg } == base)
        #expect(key { $0.border.width = 3 } == base)
    }
}
