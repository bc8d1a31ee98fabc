import Testing
@testable import CardBakeCatalog

/// ``StyleOverrides``: the command line's `--scales` and `--format` as the last style layer, validated
/// with the catalog by the catalog's rules.
@Suite struct StyleOverridesTests {
    private typealias Fixture = CatalogFixture

    /// A card whose own style block makes it 6000 + 300 points tall: 18,900 pixels at scale 3, too tall for WebP.
    private static let tallCard = Fixture.card(id: "tall", extra: #""style": {"maxFeatureHeight": 6000}"#)

    // MARK: The layer

    @Test func theOverridesReachTheCatalogsStyleAndEveryCard() throws {
        // Given a catalog with its own scales and format, and cards without style blocks
        let json = Fixture.catalog(cards: [Fixture.card(id: "a"), Fixture.card(id: "b")],
                                   style: #"{"scales": [1], "format": "jpeg", "quality": 70}"#)

        // When
        let catalog = try Fixture.decode(json, overrides: StyleOverrides(scales: [4, 2], format: .webp))

        // Then every style has the overriding values, ascending, and the catalog's others
        for style in [catalog.style] + catalog.cards.map(\.style) {
            #expect(style.scales == [2, 4])
            #expect(style.output.kind == .webp)
            #expect(style.output.quality == 70)
        }
    }

    @Test func anOverrideWinsOverACardsOwnBlockAndLeavesItsOtherValues() throws {
        // Given a card whose block sets scales, a format and a title size
        let card = Fixture.card(extra: #""style": {"scales": [1, 2], "format": "png", "title": {"size": 20}}"#)

        // When only the format is overridden
        let style = try #require(try Fixture.decode(Fixture.catalog(cards: [card]),
                                                    overrides: StyleOverrides(format: .jpeg)).cards.first).style

        // Then the override's format wins and the block's other values stay
        #expect(style.output.kind == .jpeg)
        #expect(style.scales == [1, 2])
        #expect(style.title.size == 20)
    }

    // MARK: Rules judge the final style

    @Test func aCardTooTallForTheOverridingFormatIsRefusedNamingTheCardAndTheFlag() throws {
        // Given a card that fits PNG at scales 1 and 3 but not WebP
        let json = Fixture.catalog(cards: [Fixture.card(id: "good"), Self.tallCard], style: #"{"scales": [1, 3]}"#)

        // When WebP is asked for
        let problem = Fixture.problem(json, overrides: try StyleOverrides(format: .webp))

        // Then the card's style block is named, with the limit and where the format came from
        #expect(problem == CatalogProblem(path: "cards[1].style", cardID: "tall", message: """
            the tallest card, a feature of 6000 points (maxFeatureHeight) over a text area of 300 (textAreaHeight), \
            is 18900 pixels tall at scale 3, over the 16383 pixels format "webp" (from --format) allows; allowed: \
            maxFeatureHeight + textAreaHeight up to 5461 points for "webp" at scale 3; lower them, drop scale 3, or \
            choose another format.
            """))
        #expect(problem?.description.hasPrefix(#"cards[1] ("tall").style: the tallest card"#) == true)
    }

    @Test func overridingScalesAreMarkedAsComingFromTheFlag() throws {
        // Given a WebP catalog whose card fits at scale 1 only
        let json = Fixture.catalog(cards: [Self.tallCard], style: #"{"format": "webp", "scales": [1]}"#)

        // When scale 4 is asked for
        let problem = Fixture.problem(json, overrides: try StyleOverrides(scales: [1, 4]))

        // Then
        #expect(problem?.path == "cards[0].style")
        #expect(problem?.message.contains(#"at scale 4 (from --scales), over the 16383 pixels format "webp" allows"#) == true,
                "\(String(describing: problem))")
    }

    @Test func aCatalogStyleTooTallUnderTheOverrideIsReportedOnceAtThatStyle() throws {
        // Given a catalog style that fits PNG but not WebP, inherited by two cards
        let json = Fixture.catalog(cards: [Fixture.card(id: "a"), Fixture.card(id: "b")],
                                   style: #"{"maxFeatureHeight": 6000}"#)

        // Then under --format webp only the catalog's style block is named, as for a catalog that says webp
        let problems = Fixture.problems(json, overrides: try StyleOverrides(format: .webp))
        #expect(problems.map(\.path) == ["style"])
        #expect(problems.first?.message.contains(#"format "webp" (from --format) allows"#) == true, "\(problems)")
    }

    @Test func anOverrideThatMakesTheStylesFitLetsTheCatalogThrough() throws {
        // Given a catalog too tall for the WebP it asks for
        let json = Fixture.catalog(cards: [Self.tallCard], style: #"{"format": "webp", "scales": [3]}"#)
        #expect(Fixture.problems(json).map(\.path) == ["cards[0].style"])

        // When PNG is asked for instead, or a scale WebP can hold
        let png = try Fixture.decode(json, overrides: StyleOverrides(format: .png))
        let smaller = try Fixture.decode(json, overrides: StyleOverrides(scales: [2]))

        // Then the final styles are judged, and they fit
        #expect(png.cards.map(\.style.output.kind) == [.png])
        #expect(smaller.cards.map(\.style.scales) == [[2]])
    }

    // MARK: --scales follows the rule of a catalog's scales

    @Test func repeatedScalesAreRefusedInTheCatalogsWordsNamingTheFlag() throws {
        // Given the same repeated scales in a catalog and in --scales
        let catalogProblem = Fixture.problem(Fixture.catalog(style: #"{"scales": [2, 1, 2]}"#))
        #expect(catalogProblem == CatalogProblem(path: "style.scales[2]", message: """
            scale 2 is repeated (first at style.scales[0]); allowed: a non-empty array of different integers from 1 to 4.
            """))

        // Then --scales is refused in the same words
        #expect(throws: OverrideError(problems: [CatalogProblem(path: "--scales[2]", message: """
            scale 2 is repeated (first at --scales[0]); allowed: a non-empty comma-separated list of different \
            integers from 1 to 4.
            """)])) {
            try StyleOverrides(scales: StyleOverrides.scales(parsing: "2, 1,2"))
        }
    }

    @Test(arguments: [0, 5, -1, 100])
    func anOutOfRangeScaleIsRefusedInTheCatalogsWords(scale: Int) throws {
        // Given the catalog's message for the scale
        let catalogProblem = try #require(Fixture.problem(Fixture.catalog(style: #"{"scales": [1, \#(scale)]}"#)))
        #expect(catalogProblem.path == "style.scales[1]")

        // Then --scales gets the same message
        #expect(throws: OverrideError(problems: [CatalogProblem(path: "--scales[1]", message: catalogProblem.message)])) {
            try StyleOverrides(scales: StyleOverrides.scales(parsing: "1,\(scale)"))
        }
    }

    @Test func everyProblemOfTheListIsReportedOnItsOwnLine() {
        let error = #expect(throws: OverrideError.self) { try StyleOverrides(scales: [9, 1, 1]) }
        #expect(error?.description == """
            --scales[0]: 9 is out of range; allowed: an integer from 1 to 4.
            --scales[2]: scale 1 is repeated (first at --scales[1]); allowed: a non-empty comma-separated list of \
            different integers from 1 to 4.
            """)
    }

    @Test(arguments: [
        ("", "--scales", "the comma-separated list is empty; allowed: \(ScaleListRule.commandLine.allowed)."),
        (" ", "--scales", "the comma-separated list is empty; allowed: \(ScaleListRule.commandLine.allowed)."),
        ("1,x", "--scales[1]", #"expected an integer from 1 to 4, found "x"."#),
        ("1,,2", "--scales[1]", #"expected an integer from 1 to 4, found ""."#),
        ("2,", "--scales[1]", #"expected an integer from 1 to 4, found ""."#),
        ("1.5", "--scales[0]", #"expected an integer from 1 to 4, found "1.5"."#),
    ])
    func anArgumentThatIsNotAListOfIntegersIsRefused(argument: String, path: String, message: String) {
        #expect(throws: OverrideError(problems: [CatalogProblem(path: path, message: message)])) {
            try StyleOverrides(scales: StyleOverrides.scales(parsing: argument))
        }
    }

    @Test func scalesInAnyOrderAreKeptAscendingAsTheCatalogKeepsThem() throws {
        #expect(try StyleOverrides(scales: StyleOverrides.scales(parsing: " 3 , 1")).scales == [1, 3])
        #expect(try Fixture.decode(Fixture.catalog(style: #"{"scales": [3, 1]}"#)).style.scales == [1, 3])
    }
}
