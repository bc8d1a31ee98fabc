@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

@Suite("Text rasterizer", .vips)
struct TextRasterizerTests {
    static let frame = PixelRect(x: 0, y: 0, width: 280, height: 40)
    /// The default title's and description's fonts as they resolve.
    static let title = TextFont(family: "Lato Heavy", weight: 800)
    static let description = TextFont(family: "Lato Medium", weight: 500)

    static func mask(_ text: String, mode: TextRasterizer.Mode = .singleLine, frame: PixelRect = frame,
                     font: TextFont = title, size: Double = 30) throws -> (bitmap: Bitmap, truncated: Bool) {
        let mask = try TextRasterizer.rasterize(text, font: font, size: size, frame: frame, mode: mode, padding: 0)
        return (try Bitmap(mask.image), mask.truncated)
    }

    /// Columns that hold any ink.
    static func inkWidth(_ bitmap: Bitmap) -> Int {
        (0..<bitmap.width).filter { x in (0..<bitmap.height).contains { bitmap.pixel(x, $0)[0] > 64 } }.count
    }

    @Test("Text is text, never markup: & and < render as themselves", arguments: ["Tom & Jerry <3", "&", "<b>", "a &amp; b"])
    func notMarkup(text: String) throws {
        let (bitmap, _) = try Self.mask(text)
        #expect(Self.inkWidth(bitmap) > 5 * text.count / 2, "\(text) drew too little ink to be all its characters")
    }

    @Test("Markup-like text is drawn with all its characters")
    func markupIsLiteral() throws {
        let literal = Self.inkWidth(try Self.mask("<b>ab</b>").bitmap)
        let plain = Self.inkWidth(try Self.mask("ab").bitmap)
        #expect(literal > plain * 2)
    }

    @Test("A title too wide for its frame ends in an ellipsis; a short one does not")
    func titleEllipsis() throws {
        #expect(try Self.mask("Short").truncated == false)
        let long = try Self.mask("Falcon 9 and DSCOVR on Cape Canaveral's Pad 40")
        #expect(long.truncated)
        #expect(Self.inkWidth(long.bitmap) <= Self.frame.width)
    }

    @Test("A description taller than its frame drops lines and ends in an ellipsis")
    func descriptionEllipsis() throws {
        let frame = PixelRect(x: 0, y: 0, width: 272, height: 60)
        let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)
        let result = try Self.mask(long, mode: .wrapped, frame: frame, font: Self.description, size: 16)
        #expect(result.truncated)
        let short = try Self.mask("Two words", mode: .wrapped, frame: frame, font: Self.description, size: 16)
        #expect(short.truncated == false)
    }

    @Test("Empty text draws nothing")
    func empty() throws {
        let (bitmap, truncated) = try Self.mask("")
        #expect(bitmap.samples.allSatisfy { $0 == 0 })
        #expect(truncated == false)
    }

    @Test("Accents, Greek and Cyrillic draw with the card fonts")
    func nonLatin() throws {
        for text in ["Γάτα Chelsea", "Кошка", "Crème brûlée", "e\u{301}"] {
            #expect(Self.inkWidth(try Self.mask(text).bitmap) > 10, "\(text) drew nothing")
        }
    }
}
