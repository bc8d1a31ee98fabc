import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// How ``CatalogError`` reaches the catalog's author: positions of JSON errors and the text of each message.
@Suite struct CatalogErrorTests {
    private let relativeFile = URL(fileURLWithPath: "Input/catalog.json")

    private func error(decoding json: String) -> CatalogError? {
        do {
            _ = try CatalogLoader.decode(Data(json.utf8), file: relativeFile)
            Issue.record("the catalog validated")
        } catch let error as CatalogError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func invalidJSONNamesLineAndColumn() {
        let json = """
        {
          "version": 1,
          "cards": [
            {"id": "ab" "image": "a.png", "title": "", "description": ""}
          ]
        }
        """
        let error = error(decoding: json)
        #expect(error == .invalidJSON(file: relativeFile, line: 4, column: 17, reason: "expected ',' or '}' after an object member"))
        #expect(error?.description == "Input/catalog.json:4:17: invalid JSON: expected ',' or '}' after an object member.")
    }

    @Test func trailingCommaIsInvalidJSON() {
        let json = """
        {"version": 1, "cards": [
          {"id": "a", "image": "a.png", "title": "", "description": ""},
        ]}
        """
        #expect(error(decoding: json)?.description
            == "Input/catalog.json:2:64: invalid JSON: trailing comma before ']'; JSON allows no comma after the last item.")
    }

    @Test func deepNestingIsInvalidJSONNotACrash() {
        let prefix = #"{"version": 1, "cards": [], "junk": "#
        // The object is level 1, so the 512th bracket opens level 513.
        #expect(error(decoding: prefix + String(repeating: "[", count: 100_000))
            == .invalidJSON(file: relativeFile, line: 1, column: prefix.count + 512,
                            reason: "arrays and objects nest more than 512 levels deep"))
    }

    @Test func invalidCatalogListsEveryProblemOnItsOwnLine() {
        let json = #"{"version": 2, "style": {"blur": {"radius": 10000}}, "cards": [{"id": "a", "image": "a.png", "title": "x", "description": "", "colour": 1}]}"#
        #expect(error(decoding: json)?.description == """
        Input/catalog.json: version: unsupported catalog version 2; this cardbake reads version 1.
        Input/catalog.json: style.blur.radius: 10000 is out of range; allowed: a number from 0 to 100.
        Input/catalog.json: cards[0] ("a").colour: unknown key "colour"; allowed keys: id, image, title, description, style, styles.
        """)
    }

    @Test func topLevelProblemsSayTopLevel() {
        #expect(error(decoding: "[]")?.description
            == "Input/catalog.json: top level: expected an object with keys version, locales, sourceLocale, strings, style, styles, remoteImages, cards, found an array.")
    }

    @Test(arguments: [(50, 50, nil), (51, 50, "… and 1 more problem."), (75, 50, "… and 25 more problems.")] as [(Int, Int, String?)])
    func descriptionListsAtMostFiftyProblems(count: Int, listed: Int, summary: String?) {
        let problems = (0..<count).map { CatalogProblem(path: "cards[\($0)].id", message: "bad.") }
        let lines = CatalogError.invalid(file: relativeFile, problems: problems).description.split(separator: "\n")
        #expect(lines.count == listed + (summary == nil ? 0 : 1))
        #expect(lines.first == "Input/catalog.json: cards[0].id: bad.")
        #expect(lines[listed - 1] == "Input/catalog.json: cards[\(listed - 1)].id: bad.")
        #expect(summary.map { lines.last == Substring($0) } ?? true)
    }

    @Test func cardIDIsShownAfterTheCardIndex() {
        #expect(CatalogProblem(path: "cards[12].style.title.shadow.offset.y", cardID: "my-card", message: "m.").description
            == #"cards[12] ("my-card").style.title.shadow.offset.y: m."#)
        #expect(CatalogProblem(path: "cards[12]", cardID: "my-card", message: "m.").description == #"cards[12] ("my-card"): m."#)
        #expect(CatalogProblem(path: "cards[12].id", message: "m.").description == "cards[12].id: m.")
    }

    @Test func absoluteCatalogPathsStayAbsolute() {
        let file = URL(fileURLWithPath: "/srv/catalog.json")
        #expect(CatalogError.invalidJSON(file: file, line: 1, column: 1, reason: "x").description == "/srv/catalog.json:1:1: invalid JSON: x.")
    }
}
