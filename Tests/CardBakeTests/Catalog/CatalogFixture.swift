import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// Builds catalog JSON for tests and runs it through ``CatalogLoader``.
enum CatalogFixture {
    /// An absolute catalog location; `decode` never reads it, it only anchors relative paths.
    static let file = URL(fileURLWithPath: "/catalogs/Input/catalog.json")

    /// A valid card object, with `extra` members (JSON text, without a leading comma) appended.
    static func card(id: String = "toucan", extra: String? = nil) -> String {
        let members = [#""id": "\#(id)""#, #""image": "toucan.png""#, #""title": "Toucan""#,
                       #""description": "A bird.""#] + (extra.map { [$0] } ?? [])
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A catalog with version 1, the given cards and, when given, a `style` block (JSON text).
    static func catalog(cards: [String] = [card()], style: String? = nil) -> String {
        let styleMember = style.map { #", "style": \#($0)"# } ?? ""
        return #"{"version": 1\#(styleMember), "cards": [\#(cards.joined(separator: ", "))]}"#
    }

    static func decode(_ json: String, file: URL = file, overrides: StyleOverrides = StyleOverrides()) throws -> Catalog {
        try CatalogLoader.decode(Data(json.utf8), file: file, overrides: overrides)
    }

    /// The problems of a catalog that must not validate; records an issue if it does.
    static func problems(_ json: String, overrides: StyleOverrides = StyleOverrides(),
                         sourceLocation: SourceLocation = #_sourceLocation) -> [CatalogProblem] {
        do {
            _ = try decode(json, overrides: overrides)
            Issue.record("the catalog validated", sourceLocation: sourceLocation)
        } catch CatalogError.invalid(_, let problems) {
            return problems
        } catch {
            Issue.record("expected CatalogError.invalid, got \(error)", sourceLocation: sourceLocation)
        }
        return []
    }

    /// The single problem of a catalog that must have exactly one.
    static func problem(_ json: String, overrides: StyleOverrides = StyleOverrides(),
                        sourceLocation: SourceLocation = #_sourceLocation) -> CatalogProblem? {
        let problems = problems(json, overrides: overrides, sourceLocation: sourceLocation)
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        return problems.first
    }

    /// The problem of a catalog whose only card has the given style block.
    static func cardStyleProblem(_ style: String, sourceLocation: SourceLocation = #_sourceLocation) -> CatalogProblem? {
        problem(catalog(cards: [card(extra: #""style": \#(style)"#)]), sourceLocation: sourceLocation)
    }

    /// Where and why a document is not JSON; records an issue if it is.
    static func syntaxError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        do throws(JSONSyntaxError) {
            let value = try JSONDocument.parse(Data(bytes))
            Issue.record("parsed as \(value)", sourceLocation: sourceLocation)
        } catch {
            return error
        }
        return nil
    }

    static func syntaxError(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        syntaxError(Array(json.utf8), sourceLocation: sourceLocation)
    }
}
