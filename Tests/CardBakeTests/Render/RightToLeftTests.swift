import Foundation
@testable import CardBake
@testable import CardBakeCatalog
@testable import CardBakeRender
import Testing
import Vips

/// Right-to-left text (Arabic, Hebrew, Persian, Urdu, and any text whose first strong character is
/// right-to-left) keeps to the right margin, and a line cut short ends in an ellipsis at its left end.
@Suite("Right-to-left text", .vips)
struct RightToLeftTests {
    static let shortTitles = [
        ScriptSample(script: "ar", text: "طائر الطوقان", package: "fonts-noto-core"),
        ScriptSample(script: "he", text: "טוקן צבעוני", package: "fonts-noto-core"),
        ScriptSample(script: "fa", text: "طوطی زیبا", package: "fonts-noto-core"),
        ScriptSample(script: "ur", text: "طوطا", package: "fonts-noto-core"),
        ScriptSample(script: "Hebrew first, then Latin", text: "טוקן Toucan 42", package: "fonts-noto-core"),
    ]
    static let longTitles = [
        ScriptSample(script: "ar", text: "طائر الطوقان ذو المنقار الكبير يعيش في الغابات الاستوائية", package: "fonts-noto-core"),
        ScriptSample(script: "he", text: "הטוקן הוא ציפור טרופית עם מקור גדול וצבעוני מאוד", package: "fonts-noto-core"),
        ScriptSample(script: "fa", text: "توکان پرنده‌ای گرمسیری با منقاری بزرگ و رنگارنگ است", package: "fonts-noto-core"),
        ScriptSample(script: "ur", text: "ٹوکن ایک استوائی پرندہ ہے جس کی چونچ بہت بڑی اور رنگین ہوتی ہے", package: "fonts-noto-core"),
        // Cut in its right-to-left words: a cut in a left-to-right run is marked where it falls, inside the line.
        ScriptSample(script: "Hebrew first, then Latin", text: "טוקן Toucan הוא ציפור טרופית עם מקור גדול וצבעוני מאוד",
                     package: "fonts-noto-core"),
    ]

    static let titleFrame = PixelRect(x: 0, y: 0, width: 280, height: 40)
    static let descriptionFrame = PixelRect(x: 0, y: 0, width: 272, height: 100)
    /// Ink closer than this to a frame's edge touches it (side bearings, an ellipsis' spacing).
    static let margin = 8

    static func mask(_ text: String, mode: TextRasterizer.Mode = .singleLine,
                     frame: PixelRect = titleFrame) throws -> (ink: TextInk, truncated: Bool) {
        let fonts = try FontResolver().fonts(for: CardStyle())
        let (font, size) = mode == .singleLine ? (fonts.title, 30.0) : (fonts.description, 16.0)
        let mask = try TextRasterizer.rasterize(text, font: font.textFont(in: nil), size: size, frame: frame, mode: mode, padding: 0)
        return (TextInk(mask: try Bitmap(mask.image)), mask.truncated)
    }

    /// Cancels the test case when no installed font draws `sample`.
    static func requireFonts(for sample: ScriptSample) throws {
        let fonts = try FontResolver().fonts(for: CardStyle())
        if try !FontResolver().coverage(of: sample.text, in: fonts.title, size: 30).missing.isEmpty {
            try Test.cancel("no installed font draws the \(sample.script) sample; install \(sample.package) (`make deps` does)")
        }
    }

    /// The ink columns of "…" alone in the title's font, and how many rows it spans.
    static func ellipsis() throws -> (width: Int, height: Int) {
        let ink = try mask("…").ink
        let columns = try #require(ink.inkColumns())
        let rows = try #require(ink.inkRows(columns: columns))
        return (columns.count, rows.count)
    }

    /// Whether the ink in `columns`, at one end of a line, is only an ellipsis: no taller than its dots.
    static func holdsOnlyEllipsis(_ ink: TextInk, columns: ClosedRange<Int>, ellipsis: (width: Int, height: Int)) -> Bool {
        guard let rows = ink.inkRows(columns: columns) else { return false }
        return rows.count <= ellipsis.height + 2
    }

    /// Whether the left and the right end of `ink`'s line hold only an ellipsis, over 4/5 of its width.
    static func ellipsisEnds(of ink: TextInk) throws -> (left: Bool, right: Bool) {
        let ellipsis = try Self.ellipsis()
        let columns = try #require(ink.inkColumns())
        let span = ellipsis.width * 4 / 5
        return (holdsOnlyEllipsis(ink, columns: columns.lowerBound...(columns.lowerBound + span), ellipsis: ellipsis),
                holdsOnlyEllipsis(ink, columns: (columns.upperBound - span)...columns.upperBound, ellipsis: ellipsis))
    }

    @Test("A short right-to-left title hugs the right edge, far from the left", arguments: shortTitles)
    func shortTitleHugsRight(sample: ScriptSample) throws {
        try Self.requireFonts(for: sample)
        let (ink, truncated) = try Self.mask(sample.text)
        let columns = try #require(ink.inkColumns())
        #expect(!truncated)
        #expect(columns.upperBound >= Self.titleFrame.width - Self.margin, "rightmost ink at \(columns.upperBound)")
        #expect(columns.lowerBound >= Self.titleFrame.width / 4, "leftmost ink at \(columns.lowerBound)")
    }

    @Test("A short left-to-right title with right-to-left words in it keeps to the left edge")
    func leftToRightTitleHugsLeft() throws {
        let columns = try #require(try Self.mask("Toucan טוקן").ink.inkColumns())
        #expect(columns.lowerBound <= Self.margin, "leftmost ink at \(columns.lowerBound)")
        #expect(columns.upperBound <= Self.titleFrame.width * 3 / 4, "rightmost ink at \(columns.upperBound)")
    }

    @Test("A right-to-left title too long for its frame is cut with an ellipsis at its left end", arguments: longTitles)
    func ellipsisAtLeft(sample: ScriptSample) throws {
        try Self.requireFonts(for: sample)
        let (ink, truncated) = try Self.mask(sample.text)
        let columns = try #require(ink.inkColumns())
        #expect(truncated)
        #expect(columns.upperBound >= Self.titleFrame.width - Self.margin, "rightmost ink at \(columns.upperBound)")
        #expect(columns.lowerBound <= Self.margin, "leftmost ink at \(columns.lowerBound): the line is not full")
        let ends = try Self.ellipsisEnds(of: ink)
        #expect(ends.left, "the left end holds more than an ellipsis' dots")
        #expect(!ends.right, "the right end holds only dots")
    }

    @Test("A left-to-right title too long for its frame is cut with an ellipsis at its right end")
    func ellipsisAtRight() throws {
        let (ink, truncated) = try Self.mask("Falcon 9 and DSCOVR on Cape Canaveral's Pad 40")
        #expect(truncated)
        let ends = try Self.ellipsisEnds(of: ink)
        #expect(ends.right, "the right end holds more than an ellipsis' dots")
        #expect(!ends.left, "the left end holds only dots")
    }

    @Test("A right-to-left description's short last line hugs the right edge; its full lines are justified",
          arguments: shortTitles)
    func descriptionHugsRight(sample: ScriptSample) throws {
        try Self.requireFonts(for: sample)
        // A paragraph of full lines, then one of a single word, whose line justifying leaves alone.
        let text = Array(repeating: sample.text, count: 80 / sample.text.count + 1).joined(separator: " ") + "\n" + sample.text.split(separator: " ")[0]
        let (ink, truncated) = try Self.mask(text, mode: .wrapped, frame: Self.descriptionFrame)
        #expect(!truncated)
        // The description's lines are about 19 px apart at 16 px: the first line's band and the last ink row's.
        let firstLine = try #require(ink.inkColumns(rows: 0..<16))
        #expect(firstLine.lowerBound <= Self.margin && firstLine.upperBound >= Self.descriptionFrame.width - Self.margin,
                "first line's ink spans \(firstLine)")
        let lastInkRow = try #require(ink.inkRows(columns: 0...(Self.descriptionFrame.width - 1))).upperBound
        let lastLine = try #require(ink.inkColumns(rows: (lastInkRow - 8)..<(lastInkRow + 1)))
        #expect(lastLine.upperBound >= Self.descriptionFrame.width - Self.margin, "last line's rightmost ink at \(lastLine.upperBound)")
        #expect(lastLine.lowerBound >= Self.margin * 4, "last line's leftmost ink at \(lastLine.lowerBound)")
    }
}
