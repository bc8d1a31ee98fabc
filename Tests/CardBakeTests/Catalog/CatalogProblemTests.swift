import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// Catalogs that are JSON but break the schema: each problem's path, card id and message.
@Suite struct CatalogProblemTests {
    private typealias Fixture = CatalogFixture

    // MARK: Top level

    @Test(arguments: [
        ("[]", "expected an object with keys version, locales, sourceLocale, strings, style, styles, remoteImages, cards, found an array."),
        ("\"catalog\"", #"expected an object with keys version, locales, sourceLocale, strings, style, styles, remoteImages, cards, found the string "catalog"."#),
        ("null", "expected an object with keys version, locales, sourceLocale, strings, style, styles, remoteImages, cards, found null."),
    ])
    func topLevelMustBeAnObject(json: String, message: String) {
        #expect(Fixture.problem(json) == CatalogProblem(path: "", message: message))
    }

    @Test func missingRequiredTopLevelKeys() {
        #expect(Fixture.problems("{}") == [
            CatalogProblem(path: "", message: #"missing required key "version"; required keys: version, cards."#),
            CatalogProblem(path: "", message: #"missing required key "cards"; required keys: version, cards."#),
        ])
    }

    @Test(arguments: [
        ("2", "unsupported catalog version 2; this cardbake reads version 1."),
        ("0", "unsupported catalog version 0; this cardbake reads version 1."),
        ("1.5", "unsupported catalog version 1.5; this cardbake reads version 1."),
        (#""1""#, #"expected the integer 1, found the string "1"."#),
    ])
    func versionMustBeOne(version: String, message: String) {
        #expect(Fixture.problem(#"{"version": \#(version), "cards": []}"#) == CatalogProblem(path: "version", message: message))
    }

    @Test func cardsMustBeAnArrayOfObjects() {
        #expect(Fixture.problem(#"{"version": 1, "cards": {}}"#)
            == CatalogProblem(path: "cards", message: "expected an array of card objects, found an object."))
        #expect(Fixture.problem(#"{"version": 1, "cards": [7]}"#)
            == CatalogProblem(path: "cards[0]", message: "expected an object with keys id, image, title, description, style, styles, found the number 7."))
    }

    // MARK: Unknown, missing and repeated keys

    @Test func unknownKeyInACard() throws {
        let cards = ["a", "b", "c"].map { Fixture.card(id: $0) } + [Fixture.card(extra: #""titel": "Toucan""#)]
        let problem = try #require(Fixture.problem(Fixture.catalog(cards: cards)))
        #expect(problem == CatalogProblem(path: "cards[3].titel", cardID: "toucan",
                                          message: #"unknown key "titel"; allowed keys: id, image, title, description, style, styles."#))
        let error = CatalogError.invalid(file: URL(fileURLWithPath: "Input/catalog.json"), problems: [problem])
        #expect(error.description
            == #"Input/catalog.json: cards[3] ("toucan").titel: unknown key "titel"; allowed keys: id, image, title, description, style, styles."#)
    }

    @Test(arguments: [
        (#"{"version": 1, "cards": [], "stlye": {}}"#, "stlye", nil,
         #"unknown key "stlye"; allowed keys: version, locales, sourceLocale, strings, style, styles, remoteImages, cards."#),
        (Fixture.catalog(style: #"{"cardwidth": 300}"#), "style.cardwidth", nil,
         #"unknown key "cardwidth"; allowed keys: cardWidth, textAreaHeight, maxFeatureHeight, minFeatureHeight, scales, format, quality, compression, pngFilter, blur, title, description, border."#),
        (Fixture.catalog(style: #"{"blur": {"radios": 3}}"#), "style.blur.radios", nil,
         #"unknown key "radios"; allowed keys: radius, saturation, tint."#),
        (Fixture.catalog(cards: [Fixture.card(extra: #""style": {"title": {"shadow": {"offset": {"z": 1}}}}"#)]),
         "cards[0].style.title.shadow.offset.z", "toucan", #"unknown key "z"; allowed keys: x, y."#),
        (Fixture.catalog(style: #"{"border": {"my key\n": 1}}"#), #"style.border["my key\n"]"#, nil,
         #"unknown key "my key\n"; allowed keys: width, color."#),
    ] as [(String, String, String?, String)])
    func unknownKeysAnywhere(json: String, path: String, cardID: String?, message: String) {
        #expect(Fixture.problem(json) == CatalogProblem(path: path, cardID: cardID, message: message))
    }

    @Test func missingCardKeys() {
        let problems = Fixture.problems(Fixture.catalog(cards: [#"{"id": "lonely"}"#]))
        let required = "required keys: id, image, title, description."
        #expect(problems == ["image", "title", "description"].map {
            CatalogProblem(path: "cards[0]", cardID: "lonely", message: #"missing required key "\#($0)"; \#(required)"#)
        })
    }

    @Test func duplicateJSONKeys() {
        #expect(Fixture.problems(#"{"version": 1, "version": 1, "cards": [\#(Fixture.card(extra: #""title": "Again""#))]}"#) == [
            CatalogProblem(path: "version", message: #"duplicate key "version"; each key may appear only once in an object."#),
            CatalogProblem(path: "cards[0].title", cardID: "toucan",
                           message: #"duplicate key "title"; each key may appear only once in an object."#),
        ])
    }

    // MARK: Types and ranges

    @Test(arguments: [
        (#"{"cardWidth": "320"}"#, "style.cardWidth", #"expected a number from 1 to 2048, found the string "320"."#),
        (#"{"scales": 1}"#, "style.scales", "expected a non-empty array of different integers from 1 to 4, found the number 1."),
        (#"{"scales": ["1"]}"#, "style.scales[0]", #"expected an integer from 1 to 4, found the string "1"."#),
        (#"{"format": 1}"#, "style.format", #"expected one of "png", "jpeg", "webp", "heic", "avif", found the number 1."#),
        (#"{"quality": true}"#, "style.quality", "expected null or an integer from 1 to 100, found true."),
        (#"{"blur": []}"#, "style.blur", "expected an object with keys radius, saturation, tint, found an array."),
        (#"{"blur": {"tint": 255}}"#, "style.blur.tint",
         ##"expected a colour string "#RRGGBB" or "#RRGGBBAA" of hexadecimal digits, found the number 255."##),
        (#"{"title": {"shadow": 5}}"#, "style.title.shadow",
         "expected null or an object with keys color, offset, radius, found the number 5."),
        (#"{"title": {"shadow": {"offset": [1, 2]}}}"#, "style.title.shadow.offset",
         "expected an object with keys x, y, found an array."),
        (#"{"title": {"font": null}}"#, "style.title.font",
         "expected a string of 1 to 200 characters without control characters, found null."),
        (#"{"description": {"fontFile": false}}"#, "style.description.fontFile",
         "expected null or a non-empty file path, absolute or relative to the catalog's folder, without NUL characters, found false."),
        (#"{"format": "gif"}"#, "style.format", #""gif" is not supported; allowed: one of "png", "jpeg", "webp", "heic", "avif"."#),
        (#"{"format": "PNG"}"#, "style.format", #""PNG" is not supported; allowed: one of "png", "jpeg", "webp", "heic", "avif"."#),
        (#"{"pngFilter": "best"}"#, "style.pngFilter",
         #""best" is not supported; allowed: one of "none", "sub", "up", "average", "paeth", "adaptive"."#),
    ])
    func wrongTypesNameWhatIsAllowed(style: String, path: String, message: String) {
        #expect(Fixture.problem(Fixture.catalog(style: style)) == CatalogProblem(path: path, message: message))
    }

    @Test(arguments: [
        (#"{"id": 7, "image": "a.png", "title": "", "description": ""}"#, "cards[0].id",
         "expected \(CardIDRule.allowed), found the number 7."),
        (#"{"id": "a", "image": ["a.png"], "title": "", "description": ""}"#, "cards[0].image",
         "expected a non-empty file path, absolute or relative to the catalog's folder, without NUL characters, found an array."),
        (#"{"id": "a", "image": "a.png", "title": 5, "description": ""}"#, "cards[0].title",
         "expected a string of at most 1000 characters without control characters, found the number 5."),
        (#"{"id": "a", "image": "a.png", "title": "", "description": {}}"#, "cards[0].description",
         "expected a string of at most 1000000 characters without control characters other than line feed and tab, found an object."),
        (#"{"id": "a", "image": "a.png", "title": "", "description": "", "style": "dark"}"#, "cards[0].style",
         #"expected an object with keys cardWidth, textAreaHeight, maxFeatureHeight, minFeatureHeight, scales, format, quality, compression, pngFilter, blur, title, description, border, found the string "dark"."#),
    ])
    func wrongCardFieldTypes(card: String, path: String, message: String) {
        let cardID: String? = path == "cards[0].id" ? nil : "a"
        #expect(Fixture.problem(Fixture.catalog(cards: [card])) == CatalogProblem(path: path, cardID: cardID, message: message))
    }

    @Test(arguments: [
        (#"{"cardWidth": 0}"#, "style.cardWidth", "0 is out of range; allowed: a number from 1 to 2048."),
        (#"{"cardWidth": 2048.5}"#, "style.cardWidth", "2048.5 is out of range; allowed: a number from 1 to 2048."),
        (#"{"textAreaHeight": -1}"#, "style.textAreaHeight", "-1 is out of range; allowed: a number from 0 to 4096."),
        (#"{"scales": [0]}"#, "style.scales[0]", "0 is out of range; allowed: an integer from 1 to 4."),
        (#"{"scales": [1, 9]}"#, "style.scales[1]", "9 is out of range; allowed: an integer from 1 to 4."),
        (#"{"scales": [1.5]}"#, "style.scales[0]", "1.5 is not a whole number; allowed: an integer from 1 to 4."),
        (#"{"quality": 0}"#, "style.quality", "0 is out of range; allowed: an integer from 1 to 100."),
        (#"{"quality": 85.5}"#, "style.quality", "85.5 is not a whole number; allowed: an integer from 1 to 100."),
        (#"{"compression": 10}"#, "style.compression", "10 is out of range; allowed: an integer from 0 to 9."),
        (#"{"blur": {"radius": 10000}}"#, "style.blur.radius", "10000 is out of range; allowed: a number from 0 to 100."),
        (#"{"blur": {"saturation": 4.01}}"#, "style.blur.saturation", "4.01 is out of range; allowed: a number from 0 to 4."),
        (#"{"title": {"size": 0.5}}"#, "style.title.size", "0.5 is out of range; allowed: a number from 1 to 200."),
        (#"{"title": {"shadow": {"radius": -0.1}}}"#, "style.title.shadow.radius", "-0.1 is out of range; allowed: a number from 0 to 100."),
        (#"{"description": {"shadow": {"offset": {"x": -101}}}}"#, "style.description.shadow.offset.x",
         "-101 is out of range; allowed: a number from -100 to 100."),
        (#"{"border": {"width": 1e3}}"#, "style.border.width", "1000 is out of range; allowed: a number from 0 to 100."),
    ])
    func outOfRangeValues(style: String, path: String, message: String) {
        #expect(Fixture.problem(Fixture.catalog(style: style)) == CatalogProblem(path: path, message: message))
    }

    @Test func scalesMustBeNonEmptyAndDifferent() {
        let allowed = "allowed: a non-empty array of different integers from 1 to 4."
        #expect(Fixture.problem(Fixture.catalog(style: #"{"scales": []}"#))
            == CatalogProblem(path: "style.scales", message: "the array is empty; \(allowed)"))
        #expect(Fixture.problems(Fixture.catalog(style: #"{"scales": [2, 1, 2, 2.0]}"#)) == [
            CatalogProblem(path: "style.scales[2]", message: "scale 2 is repeated (first at style.scales[0]); \(allowed)"),
            CatalogProblem(path: "style.scales[3]", message: "scale 2 is repeated (first at style.scales[0]); \(allowed)"),
        ])
    }

    @Test(arguments: ["#12345", "#1234567", "#GGGGGG", "red", "123456", "", "#12 345", "#１２３４５６"])
    func badColours(color: String) {
        let message = "\(MessageText.quoted(color)) is not a colour; allowed: a colour string \"#RRGGBB\" or \"#RRGGBBAA\" of hexadecimal digits."
        #expect(Fixture.cardStyleProblem(#"{"border": {"color": "\#(color)"}}"#)
            == CatalogProblem(path: "cards[0].style.border.color", cardID: "toucan", message: message))
    }

    // MARK: Ids

    @Test func duplicateIDsNameTheFirstUse() {
        let cards = ["x", "y", "x", "x"].map { Fixture.card(id: $0) }
        let message = #"duplicate id "x"; first used by cards[0]; each card needs its own id."#
        #expect(Fixture.problems(Fixture.catalog(cards: cards)) == [
            CatalogProblem(path: "cards[2].id", cardID: "x", message: message),
            CatalogProblem(path: "cards[3].id", cardID: "x", message: message),
        ])
    }

    @Test(arguments: [
        ("../x", #"the id "../x" starts with '.'"#),
        ("a/b", #"the id "a/b" contains '/'"#),
        (".x", #"the id ".x" starts with '.'"#),
        ("-x", #"the id "-x" starts with '-'"#),
        ("", "the id is empty"),
        (String(repeating: "a", count: 101), "the id is 101 characters long"),
        ("Toucan", #"the id "Toucan" starts with 'T'"#),
        ("touCan", #"the id "touCan" contains 'C'"#),
        ("café", #"the id "café" contains 'é' (U+00E9)"#),
        ("a b", #"the id "a b" contains ' '"#),
        ("a\\u0000b", #"the id "a\u0000b" contains U+0000 (NUL)"#),
        ("a\\\\b", #"the id "a\\b" contains '\'"#),
    ])
    func unsafeIDs(id: String, reason: String) {
        let message = "\(reason); allowed: \(CardIDRule.allowed)."
        #expect(Fixture.problem(Fixture.catalog(cards: [Fixture.card(id: id)]))
            == CatalogProblem(path: "cards[0].id", cardID: nil, message: message))
    }

    // MARK: Text and paths

    @Test(arguments: [
        ("title", #""a\u0000b""#, "contains the control character U+0000 (NUL) at character 2; allowed: a string of at most 1000 characters without control characters."),
        ("title", #""line\nbreak""#, "contains the control character U+000A (LF) at character 5; allowed: a string of at most 1000 characters without control characters."),
        ("title", #""🦜\u007f""#, "contains the control character U+007F (DEL) at character 2; allowed: a string of at most 1000 characters without control characters."),
        ("title", "\"\(String(repeating: "é", count: 1001))\"", "the text is 1001 characters long; allowed: a string of at most 1000 characters without control characters."),
        ("description", #""ok\n\tok\r""#, "contains the control character U+000D (CR) at character 7; allowed: a string of at most 1000000 characters without control characters other than line feed and tab."),
        ("description", #""\u001b[31m""#, "contains the control character U+001B (ESC) at character 1; allowed: a string of at most 1000000 characters without control characters other than line feed and tab."),
        ("description", #""before\u0000after""#, "contains the control character U+0000 (NUL) at character 7; allowed: a string of at most 1000000 characters without control characters other than line feed and tab."),
        ("image", #""a\u0000.png""#, "the path contains a NUL character; allowed: a non-empty file path, absolute or relative to the catalog's folder, without NUL characters."),
        ("image", #""""#, "the path is empty; allowed: a non-empty file path, absolute or relative to the catalog's folder, without NUL characters."),
    ])
    func badTextAndPaths(key: String, value: String, message: String) {
        var fields = ["id": #""t""#, "image": #""t.png""#, "title": #""T""#, "description": #""D""#]
        fields[key] = value
        let card = "{" + ["id", "image", "title", "description"].map { #""\#($0)": \#(fields[$0]!)"# }.joined(separator: ", ") + "}"
        #expect(Fixture.problem(Fixture.catalog(cards: [card])) == CatalogProblem(path: "cards[0].\(key)", cardID: "t", message: message))
    }

    @Test func descriptionMayBeOneMillionCharacters() throws {
        let text = String(repeating: "ab\n\t", count: 250_000)
        let card = #"{"id": "big", "image": "a.png", "title": "", "description": \#(MessageText.quoted(text, limit: .max))}"#
        #expect(try Fixture.decode(Fixture.catalog(cards: [card])).cards.first?.description == text)
    }

    @Test(arguments: [
        (#"{"font": ""}"#, "style.title.font", "the string is empty; allowed: a string of 1 to 200 characters without control characters."),
        (#"{"font": "Lato\tHeavy"}"#, "style.title.font", "contains the control character U+0009 (TAB) at character 5; allowed: a string of 1 to 200 characters without control characters."),
        (#"{"fontFile": ""}"#, "style.title.fontFile", "the path is empty; allowed: a non-empty file path, absolute or relative to the catalog's folder, without NUL characters."),
        (#"{"font": "Lato\u0000Heavy"}"#, "style.title.font", "contains the control character U+0000 (NUL) at character 5; allowed: a string of 1 to 200 characters without control characters."),
        (#"{"fontFile": "Lato.ttf\u0000.png"}"#, "style.title.fontFile", "the path contains a NUL character; allowed: a non-empty file path, absolute or relative to the catalog's folder, without NUL characters."),
        (#"{"weight": 950}"#, "style.title.weight", "950 is out of range; allowed: an integer from 100 to 900."),
        (#"{"weight": 50}"#, "style.title.weight", "50 is out of range; allowed: an integer from 100 to 900."),
        (#"{"weight": 450.5}"#, "style.title.weight", "450.5 is not a whole number; allowed: an integer from 100 to 900."),
        (#"{"weight": "heavy"}"#, "style.title.weight", #""heavy" is not a weight; allowed: null, an integer from 100 to 900 or one of "normal" (400), "bold" (700)."#),
        (#"{"weight": true}"#, "style.title.weight", #"expected null, an integer from 100 to 900 or one of "normal" (400), "bold" (700), found true."#),
        (#"{"italic": "yes"}"#, "style.title.italic", #"expected true or false, found the string "yes"."#),
        (#"{"italic": null}"#, "style.title.italic", "expected true or false, found null."),
    ])
    func badFonts(title: String, path: String, message: String) {
        #expect(Fixture.problem(Fixture.catalog(style: #"{"title": \#(title)}"#)) == CatalogProblem(path: path, message: message))
    }

    // MARK: Many problems

    @Test func allProblemsAreReportedInDocumentOrder() {
        // `cards` comes before `style` and `version`, and keys inside objects are out of schema order.
        let json = """
        {
          "cards": [
            {"titel": "x", "id": "a", "image": "", "title": "A", "description": "D"},
            {"id": "Bad", "image": "b.png", "title": "B", "description": "D", "style": {"quality": 0}},
            {"id": "a", "image": "c.png", "title": "C", "description": "D"}
          ],
          "style": {"blur": {"radius": 10000}, "cardWidth": 0},
          "version": 2
        }
        """
        let problems = Fixture.problems(json)
        #expect(problems.map(\.path) == ["cards[0].titel", "cards[0].image", "cards[1].id", "cards[1].style.quality",
                                         "cards[2].id", "style.blur.radius", "style.cardWidth", "version"])
        #expect(problems.map(\.cardID) == ["a", "a", nil, nil, "a", nil, nil, nil])
    }

    @Test func aSingleBadCardFailsTheWholeCatalog() {
        let cards = (0..<5).map { Fixture.card(id: "c\($0)") } + [Fixture.card(id: "c5", extra: #""style": {"cardWidth": -1}"#)]
        #expect(Fixture.problems(Fixture.catalog(cards: cards)).map(\.path) == ["cards[5].style.cardWidth"])
    }

    @Test func deepNestingInAnUnknownKeyIsAProblemNotACrash() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(Fixture.problem(#"{"version": 1, "cards": [], "junk": \#(deep)}"#)?.path == "junk")
    }
}
