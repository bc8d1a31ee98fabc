import Foundation
@testable import CardBake
@testable import CardBakeCatalog
import Testing

@Suite("Report lines")
struct ReportLinesTests {
    static func cards(_ count: Int) -> [Card] {
        (0..<count).map { index in
            Card(id: "card-\(index)", image: URL(fileURLWithPath: "/catalog/images/\(index % 3).jpg"),
                 title: "Title \(index)", description: "Description", style: CardStyle(), index: index)
        }
    }

    @Test("Every line comes back as set, with its card's ID and index, whatever the order the lines were set in")
    func linesComeBackAsSet() {
        let cards = Self.cards(7)
        let rendered = StageReport(background: .rendered, images: ["1x": .rendered, "2x": .cached])
        let warning = BuildReport.Warning(field: "title", message: "no installed font draws U+1F600")
        let expected: [BuildReport.CardResult] = [
            .cached(cards[0]),
            .rendered(cards[1], seconds: 0.123456789, stages: rendered, reason: "new card", warnings: []),
            .rendered(cards[2], seconds: 2.5, stages: rendered, reason: "new card", warnings: [warning]),
            .failed(CardFailure(card: cards[3], field: "image", reason: "cannot read image")),
            .cached(cards[4], warnings: [warning]),
            .rendered(cards[5], seconds: 1e-9, stages: rendered, reason: "title changed", warnings: []),
            .failed(CardFailure(card: cards[6], field: "description", reason: "empty"), seconds: 0.25),
        ]
        let lines = ReportLines(for: cards)
        for position in [6, 0, 3, 5, 1, 4, 2] {
            lines.set(expected[position], at: position)
        }
        #expect(lines.all == expected)
    }

    @Test("A line set again replaces the one before")
    func lineSetAgain() {
        let cards = Self.cards(2)
        let lines = ReportLines(for: cards)
        lines.set(.failed(CardFailure(card: cards[0], field: "image", reason: "cannot read image")), at: 0)
        lines.set(.failed(CardFailure(card: cards[1], field: "image", reason: "cannot read image")), at: 1)
        let cached = BuildReport.CardResult.cached(cards[0])
        lines.set(cached, at: 0)
        #expect(lines.all.map(\.status) == [.cached, .failed])
        #expect(lines.all.first == cached)
    }
}
