import Foundation
import Testing
import Vips
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeManifest
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

    @Test("The same Han characters are drawn in each locale's glyph forms: Japanese, Simplified and Traditional Chinese differ")
    func hanGlyphForms() throws {
        // 直, 骨, 角 and 写 have shapes of their own in Japanese and in Chinese (Han unification), and
        // Noto Sans CJK draws each language's; the family is left to fallback, as a catalog would.
        let text = "直骨角写"
        let locales = ["ja", "zh-Hans", "zh-Hant"].map { LocaleTag($0)! }
        let font = try FontResolver().font(for: FontRequest(.family("Lato"), weight: 800))
        let frame = PixelRect(x: 0, y: 0, width: 240, height: 60)
        let masks = try locales.map { locale in
            try TextRasterizer.rasterize(text, font: font.textFont(in: locale), size: 40, frame: frame, mode: .singleLine, padding: 0)
        }
        let inked = { (mask: TextRasterizer.Mask) in mask.pixels.reduce(0) { $0 + Int($1) } }
        #expect(masks.allSatisfy { inked($0) > 40 * 255 }, "every locale draws the characters")
        for (first, second) in [(0, 1), (1, 2), (0, 2)] {
            let differing = zip(masks[first].pixels, masks[second].pixels).filter { abs(Int($0) - Int($1)) > 64 }.count
            #expect(differing > 100, "\(locales[first]) and \(locales[second]) draw other shapes: \(differing) pixels differ")
        }
        let again = try TextRasterizer.rasterize(text, font: font.textFont(in: locales[0]), size: 40, frame: frame,
                                                 mode: .singleLine, padding: 0)
        #expect(again.pixels == masks[0].pixels)
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
