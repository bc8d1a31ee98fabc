@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing

@Suite("Card layout")
struct CardLayoutTests {
    @Test("CARD_SPEC's frames for a landscape source")
    func defaultFrames() {
        // Given a 640 × 427 source and the default style
        let layout = CardLayout(style: CardStyle(), sourceWidth: 640, sourceHeight: 427)
        // Then F = ceil(320 · 427 / 640) = ceil(213.5) = 214, and every frame follows from it
        #expect(layout.feature == PointRect(x: 0, y: 0, width: 320, height: 214))
        #expect(layout.card == PointRect(x: 0, y: 0, width: 320, height: 514))
        #expect(layout.title == PointRect(x: 20, y: 164, width: 280, height: 40))
        #expect(layout.description == PointRect(x: 24, y: 234, width: 272, height: 260))
    }

    @Test("A portrait source makes a tall feature")
    func portrait() {
        let layout = CardLayout(style: CardStyle(), sourceWidth: 3, sourceHeight: 4)
        #expect(layout.feature.height == 427) // ceil(426.67)
        #expect(layout.card.height == 727)
    }

    @Test("Card width and text area come from the style")
    func styledSize() {
        var style = CardStyle()
        style.cardWidth = 200
        style.textAreaHeight = 100
        let layout = CardLayout(style: style, sourceWidth: 100, sourceHeight: 100)
        #expect(layout.card == PointRect(x: 0, y: 0, width: 200, height: 300))
        #expect(layout.title == PointRect(x: 20, y: 150, width: 160, height: 40))
        #expect(layout.description == PointRect(x: 24, y: 220, width: 152, height: 60))
    }

    @Test("Pixel frames scale every length", arguments: [1, 2, 3, 4])
    func pixelSize(scale: Int) {
        let layout = CardLayout(style: CardStyle(), sourceWidth: 640, sourceHeight: 427)
        let size = layout.pixelSize(atScale: scale)
        #expect(size.width == 320 * scale)
        #expect(size.height == 514 * scale)
        #expect(layout.title.pixels(atScale: scale) == PixelRect(x: 20 * scale, y: 164 * scale, width: 280 * scale, height: 40 * scale))
    }

    @Test("Fractional frames snap outwards: origins floor, far edges ceil")
    func snapping() {
        let rect = PointRect(x: 10.4, y: 0.5, width: 5.2, height: 1.1)
        #expect(rect.pixels(atScale: 1) == PixelRect(x: 10, y: 0, width: 6, height: 2))
        #expect(rect.pixels(atScale: 3) == PixelRect(x: 31, y: 1, width: 16, height: 4))
    }

    @Test("An extreme aspect ratio still gives a feature at least one point tall")
    func extremeAspect() {
        let layout = CardLayout(style: CardStyle(), sourceWidth: 4000, sourceHeight: 1)
        #expect(layout.feature.height == 1)
        #expect(layout.card.height == 301)
        #expect(layout.featureScaling == .aspectFit)
    }

    /// (source width, height, maxFeatureHeight, expected F, expected scaling); the card is 320 points wide.
    @Test("A feature up to maxFeatureHeight is fitted whole; a taller one is cut to the cap and filled", arguments: [
        (100, 299, 960, 957, .aspectFit),                              // F = ceil(956.8), below the cap
        (1, 3, 960, 960, .aspectFit),                                  // exactly at the cap
        (100, 301, 960, 960, .aspectFill),                             // 963.2 points would pass it
        (1, 4000, 960, 960, .aspectFill),                              // 1,280,000 points would
        (320, 100, 50.5, 50.5, .aspectFill),                           // a cap of any number of points
        (4000, 1, 1, 1, .aspectFit),                                   // the smallest cap still fits a 1-point feature
    ] as [(Int, Int, Double, Double, CardLayout.FeatureScaling)])
    func featureHeightCap(width: Int, height: Int, cap: Double, expected: Double, scaling: CardLayout.FeatureScaling) {
        // Given
        var style = CardStyle()
        style.maxFeatureHeight = cap

        // When
        let layout = CardLayout(style: style, sourceWidth: width, sourceHeight: height)

        // Then every frame follows the capped F
        #expect(layout.featureScaling == scaling)
        #expect(layout.feature == PointRect(x: 0, y: 0, width: 320, height: expected))
        #expect(layout.card == PointRect(x: 0, y: 0, width: 320, height: expected + 300))
        #expect(layout.title.y == expected - 50)
        #expect(layout.description.y == expected + 20)
    }

    @Test("Without maxFeatureHeight the cap is 3 × the card width, so a 9:16 portrait is fitted whole at any width",
          arguments: [1.0, 320, 2048])
    func defaultCapFollowsCardWidth(cardWidth: Double) {
        // Given no maxFeatureHeight
        var style = CardStyle()
        style.cardWidth = cardWidth

        // When
        let portrait = CardLayout(style: style, sourceWidth: 900, sourceHeight: 1600)
        let tall = CardLayout(style: style, sourceWidth: 1, sourceHeight: 4000)

        // Then
        #expect(portrait.featureScaling == .aspectFit)
        #expect(portrait.feature.height == (cardWidth * 16 / 9).rounded(.up))
        #expect(tall.featureScaling == .aspectFill)
        #expect(tall.feature.height == 3 * cardWidth)
    }
}
