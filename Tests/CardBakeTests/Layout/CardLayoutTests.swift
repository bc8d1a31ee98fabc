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

    @Test("A very wide source gets a feature minFeatureHeight tall, its centre cropped, with the title inside it")
    func extremeAspect() {
        let layout = CardLayout(style: CardStyle(), sourceWidth: 4000, sourceHeight: 1)
        #expect(layout.feature.height == 100)
        #expect(layout.card.height == 400)
        #expect(layout.featureScaling == .aspectFill)
        #expect(layout.title.y == 50)
        // The title's frame lies within the lower half of the feature, where the gradient darkens it.
        #expect(layout.title.y >= layout.feature.height / 2 && layout.title.y + layout.title.height <= layout.feature.height)
    }

    @Test("A source cropped to a taller feature is decoded wide enough for the crop; others at the card's width")
    func decodeWidth() {
        // A 4000 × 1000 panorama would make an 80-point feature; raised to 100 points, it spans 400 points, 1200 pixels at 3x.
        let panorama = CardLayout(style: CardStyle(), sourceWidth: 4000, sourceHeight: 1000)
        #expect(panorama.decodeWidth(atScale: 3) == 1200)
        #expect(CardLayout(style: CardStyle(), sourceWidth: 640, sourceHeight: 427).decodeWidth(atScale: 3) == 960)
        #expect(CardLayout(style: CardStyle(), sourceWidth: 1, sourceHeight: 4000).decodeWidth(atScale: 2) == 640)
    }

    /// (source width, height, minFeatureHeight, maxFeatureHeight, expected F, expected scaling); the card is 320 points wide.
    @Test("A feature between minFeatureHeight and maxFeatureHeight is fitted whole; another is cut or raised to the nearer one and filled",
          arguments: [
        (100, 299, 100, 960, 957, .aspectFit),                         // F = ceil(956.8), below the cap
        (1, 3, 100, 960, 960, .aspectFit),                             // exactly at the cap
        (100, 301, 100, 960, 960, .aspectFill),                        // 963.2 points would pass it
        (1, 4000, 100, 960, 960, .aspectFill),                         // 1,280,000 points would
        (320, 100, 1, 50.5, 50.5, .aspectFill),                        // a cap of any number of points
        (4000, 1, 1, 1, 1, .aspectFit),                                // the smallest cap still fits a 1-point feature
        (320, 100, 100, 960, 100, .aspectFit),                         // exactly at the floor
        (320, 99, 100, 960, 100, .aspectFill),                         // 99 points would be under it
        (4000, 1, 60.5, 960, 60.5, .aspectFill),                       // a floor of any number of points
        (4000, 1, 500, 400, 400, .aspectFill),                         // a floor above the cap gives way to it
    ] as [(Int, Int, Double, Double, Double, CardLayout.FeatureScaling)])
    func featureHeightBounds(width: Int, height: Int, floor: Double, cap: Double, expected: Double,
                             scaling: CardLayout.FeatureScaling) {
        // Given
        var style = CardStyle()
        style.minFeatureHeight = floor
        style.maxFeatureHeight = cap

        // When
        let layout = CardLayout(style: style, sourceWidth: width, sourceHeight: height)

        // Then every frame follows the bounded F
        #expect(layout.featureScaling == scaling)
        #expect(layout.feature == PointRect(x: 0, y: 0, width: 320, height: expected))
        #expect(layout.card == PointRect(x: 0, y: 0, width: 320, height: expected + 300))
        #expect(layout.title.y == expected - 50)
        #expect(layout.description.y == expected + 20)
    }

    @Test("Without maxFeatureHeight the cap is 3 × the card width, so a 9:16 portrait is fitted whole at any width that makes it at least minFeatureHeight tall",
          arguments: [57.0, 320, 2048])
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
