import Foundation
import Testing
import Vips
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeRender

/// A card's locales drawn from one decode and one background.
@Suite("Localized rendering", .vips)
struct LocalizedRenderingTests {
    /// A demo photo's card in English, Arabic and Japanese, the Japanese title in a CJK font.
    static func card(style: String = #"{"scales": [1], "format": "png"}"#) throws -> Card {
        let image = PlaceholderColorTests.demoCatalog.deletingLastPathComponent().appendingPathComponent("images/coffee.jpg")
        let json = """
        {"version": 1, "locales": ["en", "ar", "ja"], "style": \(style),
         "styles": {"ja": {"title": {"font": "Noto Sans CJK JP"}}},
         "cards": [{"id": "coffee", "image": "\(image.path)",
                    "title": {"en": "Coffee", "ar": "قهوة", "ja": "コーヒー"},
                    "description": {"en": "A cup of coffee.", "ar": "فنجان قهوة.", "ja": "一杯のコーヒー。"}}]}
        """
        return try #require(try CatalogLoader.decode(Data(json.utf8), file: URL(fileURLWithPath: "/tmp/catalog.json")).cards.first)
    }

    @Test("A locale relabeled from the source's decode and background has the pixels of that locale rendered alone")
    func relabeledMatchesAlone() throws {
        let card = try Self.card()
        let planner = Planner(statCache: StatCache(loadingFrom: nil), fonts: FontResolver())
        try Vips.start()
        let source = try CardRendering.prepare(try planner.plan(card).get(), maxPixels: BuildRequest.defaultMaxPixels)
        let background = try source.computeBackground()
        for localization in card.localizations {
            let localized = card.localized(localization)
            let plan = try planner.plan(localized).get()
            let relabeled = source.relabeled(as: localized, fonts: plan.fonts)
            #expect(relabeled.backgroundKey == source.backgroundKey, "\(localization.locale): one background for every locale")
            let shared = try Bitmap(encoded: try #require(try relabeled.render(scales: [1], background: background)[1]).data)
            let alone = try Bitmap(encoded: try #require(try CardBitmaps(rendering: localized).images[1]).data)
            #expect(shared.width == alone.width && shared.height == alone.height)
            let difference = shared.difference(from: alone)
            #expect(difference.mean < 0.01 && difference.max <= 1, "\(localization.locale): \(difference)")
            let english = try Bitmap(encoded: try #require(try source.render(scales: [1], background: background)[1]).data)
            #expect(english.difference(from: shared).mean > 0.1, "\(localization.locale): its own text is drawn")
        }
    }
}
