import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeManifest
import Testing
import Vips

/// One build of a catalog with `locales`: each card in each locale, the photo's work shared.
@Suite("Building every locale", .vips)
struct LocaleBuildTests {
    /// `alpha` translated into Arabic and Japanese, `beta` into none: it shows the source text in each.
    static func fixture(locales: [String] = ["en", "ar", "ja"]) throws -> BuildFixture {
        let fixture = try BuildFixture(images: [
            "alpha": try TestImage.blocks(width: 120, height: 80),
            "beta": try TestImage.solid(width: 60, height: 90, [40, 90, 200]),
        ])
        fixture.style = ["scales": [1, 2], "format": "png"]
        fixture.members["locales"] = locales
        fixture.cardMembers["alpha"] = ["title": ["en": "Morning coffee", "ar": "قهوة الصباح", "ja": "朝のコーヒー"]]
        return fixture
    }

    @Test("One build draws each card in each locale into the locale's folder, and the manifest lists each locale's texts and files")
    func everyLocale() async throws {
        let fixture = try Self.fixture()
        let report = try await fixture.build()

        #expect(report.cards.map(\.status) == [.rendered, .rendered])
        let stages = try #require(report.cards[0].stages)
        #expect(stages.background == .rendered)
        #expect(stages.translations == ["ar": ["1x": .rendered, "2x": .rendered], "ja": ["1x": .rendered, "2x": .rendered]])
        let entry = try #require(fixture.manifest?.cards.first)
        #expect(entry.locale == LocaleTag("en"))
        #expect(entry.localizations?.keys.sorted() == ["ar", "ja"])
        let arabic = try #require(entry.localizations?["ar"])
        #expect(arabic.title == "قهوة الصباح" && arabic.images["2x"]?.file == "cards/ar/alpha@2x.png")
        #expect(arabic.size == nil, "the size is the source locale's")
        #expect(entry.localeBuilds?["ar"]?.inputs.image == entry.inputs.image)
        #expect(entry.localeBuilds?["ar"]?.inputs.text != entry.inputs.text)
        for image in entry.card.imagesInEveryLocale.flatMap(\.values) {
            let bytes = try Data(contentsOf: fixture.output.appendingPathComponent(image.file))
            #expect(ContentDigest.sha256(bytes) == image.sha256, "\(image.file)")
        }

        // The same photo and background under another title: the feature image is the same pixels,
        // the text area is not.
        let english = try Bitmap(encoded: Data(contentsOf: fixture.output.appendingPathComponent("cards/alpha@2x.png")))
        let translated = try Bitmap(encoded: Data(contentsOf: fixture.output.appendingPathComponent("cards/ar/alpha@2x.png")))
        #expect(english.width == translated.width && english.height == translated.height)
        let featureHeight = 2 * Int((320.0 * 80 / 120).rounded(.up))
        let photoTop = { (bitmap: Bitmap) in bitmap.samples.prefix(featureHeight / 2 * bitmap.width * bitmap.bands) }
        #expect(photoTop(english).elementsEqual(photoTop(translated)), "the photo's top half is the same pixels")
        #expect(english.difference(from: translated).max > 64, "the titles differ")

        // A card with no translation shows the source text in every locale: the same bitmap bytes.
        let beta = try #require(fixture.manifest?.cards.last)
        #expect(beta.localizations?["ja"]?.title == "Title beta")
        #expect(beta.localizations?["ja"]?.images["2x"]?.sha256 == beta.images["2x"]?.sha256)
    }

    @Test("Editing one translation renders that card in that locale only, over its cached background")
    func editOneTranslation() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        fixture.cardMembers["alpha"] = ["title": ["en": "Morning coffee", "ar": "قهوة الصباح", "ja": "夜のコーヒー"]]

        let report = try await fixture.build()

        #expect(report.cards.map(\.status) == [.rendered, .cached])
        let alpha = report.cards[0]
        #expect(alpha.reason == "in locale ja: title or description changed")
        #expect(alpha.stages?.background == .cached)
        #expect(alpha.stages?.images == ["1x": .cached, "2x": .cached])
        #expect(alpha.stages?.translations == ["ar": ["1x": .cached, "2x": .cached], "ja": ["1x": .rendered, "2x": .rendered]])
        #expect(fixture.manifest?.cards.first?.localizations?["ja"]?.title == "夜のコーヒー")
    }

    @Test("A catalog without locales writes no locale fields; with its one locale declared, the same bitmaps in the same places")
    func withoutLocales() async throws {
        let plain = try Self.fixture()
        plain.members["locales"] = nil
        plain.cardMembers = [:]
        try await plain.build()
        let declared = try Self.fixture(locales: ["en"])
        declared.cardMembers = [:]
        try await declared.build()

        let manifest = try #require(plain.manifest)
        #expect(manifest.cards.allSatisfy { $0.locale == nil && $0.localizations == nil && $0.localeBuilds == nil })
        let root = try String(contentsOf: plain.output.appendingPathComponent(CardManifest.fileName), encoding: .utf8)
        #expect(!root.contains("locale"))
        let withLocale = try #require(declared.manifest)
        #expect(withLocale.cards.map { $0.locale?.description } == ["en", "en"])
        #expect(withLocale.cards.map(\.images) == manifest.cards.map(\.images))
        #expect(try FileManager.default.contentsOfDirectory(atPath: plain.output.appendingPathComponent("cards").path).sorted()
                == ["alpha@1x.png", "alpha@2x.png", "beta@1x.png", "beta@2x.png"])
    }

    @Test("Dropping a locale removes its bitmaps and its folder; the other locales' stay")
    func dropLocale() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        fixture.members["locales"] = ["en", "ar"]
        fixture.cardMembers["alpha"] = ["title": ["en": "Morning coffee", "ar": "قهوة الصباح"]]

        let report = try await fixture.build()

        #expect(report.removed == ["cards/ja/alpha@1x.png", "cards/ja/alpha@2x.png", "cards/ja/beta@1x.png", "cards/ja/beta@2x.png"])
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("cards/ja").path))
        #expect(FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("cards/ar/alpha@2x.png").path))
        #expect(report.cards.map(\.status) == [.cached, .cached], "the locales kept are cached")
    }

    @Test("A translation that cannot be drawn fails its card naming the locale; the other cards build")
    func failingTranslation() async throws {
        let fixture = try Self.fixture()
        fixture.members["styles"] = ["ja": ["title": ["font": "No Such Family 8d1c"]]]

        let report = try await fixture.build()

        #expect(report.cards.map(\.status) == [.failed, .failed])
        #expect(report.cards[0].field == #"style.title (locale "ja")"#)
        fixture.members["styles"] = ["ja": ["title": ["size": 20]]]
        let fixed = try await fixture.build()
        #expect(fixed.cards.map(\.status) == [.rendered, .rendered])
    }
}
