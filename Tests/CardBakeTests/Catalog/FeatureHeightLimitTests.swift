import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// `maxFeatureHeight`, and the limit the encoders put on the tallest card a style can make.
@Suite struct FeatureHeightLimitTests {
    private typealias Fixture = CatalogFixture

    @Test func withoutTheKeyTheCapIsThreeCardWidths() throws {
        // Given a catalog that sets only the card width
        let style = try Fixture.decode(Fixture.catalog(style: #"{"cardWidth": 500}"#)).style

        // Then
        #expect(style.maxFeatureHeight == nil)
        #expect(style.featureHeightLimit == 1500)
    }

    @Test func theCatalogsCapAppliesAndACardsOwnReplacesIt() throws {
        // Given a catalog cap, a card without a style and one with its own cap
        let catalog = try Fixture.decode(Fixture.catalog(cards: [
            Fixture.card(id: "plain"),
            Fixture.card(id: "own", extra: #""style": {"maxFeatureHeight": 1.5}"#),
        ], style: #"{"maxFeatureHeight": 480}"#))

        // Then
        #expect(catalog.style.featureHeightLimit == 480)
        #expect(catalog.cards.map(\.style.featureHeightLimit) == [480, 1.5])
    }

    @Test(arguments: [
        (#"{"maxFeatureHeight": 0}"#, "0 is out of range; allowed: a number from 1 to 8192."),
        (#"{"maxFeatureHeight": 8192.5}"#, "8192.5 is out of range; allowed: a number from 1 to 8192."),
        (#"{"maxFeatureHeight": "960"}"#, #"expected null or a number from 1 to 8192, found the string "960"."#),
    ])
    func outOfRangeOrWrongType(style: String, message: String) {
        #expect(Fixture.problem(Fixture.catalog(style: style)) == CatalogProblem(path: "style.maxFeatureHeight", message: message))
    }

    @Test func aCardsNullMaxFeatureHeightRemovesTheCatalogsForTheDefault() throws {
        let catalog = try Fixture.decode(Fixture.catalog(cards: [
            Fixture.card(id: "plain"),
            Fixture.card(id: "own", extra: #""style": {"maxFeatureHeight": null}"#),
        ], style: #"{"maxFeatureHeight": 480}"#))
        #expect(catalog.cards.map(\.style.maxFeatureHeight) == [480, nil])
        #expect(catalog.cards.map(\.style.featureHeightLimit) == [480, 960])
    }

    @Test func minFeatureHeightDefaultsToRoomForTheTitleOverTheGradientAndACardsOwnReplacesIt() throws {
        let catalog = try Fixture.decode(Fixture.catalog(cards: [
            Fixture.card(id: "plain"),
            Fixture.card(id: "own", extra: #""style": {"minFeatureHeight": 40}"#),
        ]))
        #expect(catalog.style.minFeatureHeight == 100)
        #expect(catalog.cards.map(\.style.minFeatureHeight) == [100, 40])
    }

    @Test func theFloorNeverPassesTheCap() throws {
        // Given a cap below the floor, set or by default (3 × a narrow card's width)
        let set = try Fixture.decode(Fixture.catalog(style: #"{"minFeatureHeight": 500, "maxFeatureHeight": 400}"#)).style
        let narrow = try Fixture.decode(Fixture.catalog(style: #"{"cardWidth": 20}"#)).style

        // Then the cap wins
        #expect(set.featureHeightFloor == 400)
        #expect(narrow.featureHeightFloor == 60)
    }

    @Test(arguments: [
        (#"{"minFeatureHeight": 0}"#, "style.minFeatureHeight", "0 is out of range; allowed: a number from 1 to 8192."),
        (#"{"minFeatureHeight": "80"}"#, "style.minFeatureHeight", #"expected a number from 1 to 8192, found the string "80"."#),
        (#"{"minFeatureHeight": 8192.5}"#, "style.minFeatureHeight", "8192.5 is out of range; allowed: a number from 1 to 8192."),
    ])
    func minFeatureHeightOutOfRange(style: String, path: String, message: String) {
        #expect(Fixture.problem(Fixture.catalog(style: style)) == CatalogProblem(path: path, message: message))
    }

    @Test func webPTakesTheTallestCardUpToItsLimitExactly() throws {
        // Given WebP at 1x–3x and the default text area, where 16,383 pixels allow 5161 + 300 points
        let fits = try Fixture.decode(Fixture.catalog(style: #"{"format": "webp", "maxFeatureHeight": 5161}"#)).style
        #expect(fits.tallestCardPixelHeight == 16_383)

        // Then half a point more is refused
        #expect(Fixture.problem(Fixture.catalog(style: #"{"format": "webp", "maxFeatureHeight": 5161.5}"#))?.path == "style")
    }

    @Test func aStyleTooTallForWebPIsRefusedSayingWhatAddsUpAndWhatIsAllowed() {
        // Given WebP at 4x with the tallest text area and the default cap
        let json = Fixture.catalog(style: #"{"format": "webp", "scales": [4], "textAreaHeight": 4096}"#)

        // Then the problem is at the style block, as the keys that add up are
        #expect(Fixture.problem(json) == CatalogProblem(path: "style", message: """
            the tallest card, a feature of 960 points (maxFeatureHeight's default, 3 × cardWidth) over a text area of \
            4096 (textAreaHeight), is 20224 pixels tall at scale 4, over the 16383 pixels format "webp" allows; allowed: \
            maxFeatureHeight + textAreaHeight up to 4095.75 points for "webp" at scale 4; lower them, drop scale 4, or \
            choose another format.
            """))
    }

    @Test(arguments: ["jpeg", "png"])
    func theLargestValuesTheRangesAllowSuitJPEGAndPNG(format: String) throws {
        // Given every length at its largest, at 4x
        let json = Fixture.catalog(style: #"""
            {"format": "\#(format)", "scales": [4], "cardWidth": 2048, "textAreaHeight": 4096, "maxFeatureHeight": 8192}
            """#)

        // Then the catalog validates: its tallest card, 49,152 pixels, is within JPEG's 65,500
        #expect(try Fixture.decode(json).style.tallestCardPixelHeight == 49_152)
    }

    @Test func aCardStyleThatMakesItsCardTooTallIsReportedAtThatCard() {
        // Given a WebP catalog that fits, and a card that raises the scale and the text area
        let json = Fixture.catalog(cards: [Fixture.card(extra: #""style": {"scales": [4], "textAreaHeight": 4000}"#)],
                                   style: #"{"format": "webp"}"#)

        // Then
        let problem = Fixture.problem(json)
        #expect(problem?.path == "cards[0].style")
        #expect(problem?.cardID == "toucan")
        #expect(problem?.message.hasPrefix("the tallest card, a feature of 960 points") == true, "\(String(describing: problem))")
    }

    @Test func aCardInheritingATooTallStyleIsNotReportedAgain() {
        // Given a catalog style too tall for WebP, and a card whose own style block changes something else
        let json = Fixture.catalog(cards: [Fixture.card(extra: #""style": {"title": {"size": 20}}"#)],
                                   style: #"{"format": "webp", "scales": [4], "maxFeatureHeight": 8000}"#)

        // Then only the catalog's style block is named
        #expect(Fixture.problems(json).map(\.path) == ["style"])
    }
}
