import Foundation
@testable import CardBake
@testable import CardBakeCatalog
@testable import CardBakeRender
import Testing
import Vips

/// A title in one script, and what to install when no font draws it.
struct ScriptSample: Sendable, CustomTestStringConvertible {
    let script: String
    let text: String
    let package: String

    var testDescription: String { script }
}

/// Every script at the weight and slant a style asks for: the named font picks its face by weight, and
/// the fallback fonts other scripts are drawn from follow it (the title's heavy weight in Arabic too).
@Suite("Font weight and slant", .vips)
struct ScriptWeightTests {
    static let samples = [
        ScriptSample(script: "Latin", text: "Keel-billed Toucan", package: "fonts-lato"),
        ScriptSample(script: "Arabic", text: "طائر الطوقان الملون", package: "fonts-noto-core"),
        ScriptSample(script: "Hebrew", text: "טוקן צבעוני בגן", package: "fonts-noto-core"),
        ScriptSample(script: "CJK", text: "巨嘴鸟的羽毛很美", package: "fonts-noto-cjk"),
        ScriptSample(script: "Devanagari", text: "रंगीन टूकन पक्षी", package: "fonts-noto-core"),
        ScriptSample(script: "Thai", text: "นกทูแคนสีสดใส", package: "fonts-noto-core"),
    ]

    /// The default title's style asked at `weight` (nil: the default, Lato Heavy's own 800).
    static func title(weight: Int? = nil, italic: Bool = false) -> TextStyle {
        var style = TextStyle.defaultTitle
        style.weight = weight
        style.italic = italic
        return style
    }

    static func resolve(_ style: TextStyle) throws -> ResolvedFont {
        try FontResolver().font(for: style.fontRequest)
    }

    /// `text` drawn in `font` at 30 px on one line wide enough for it.
    static func mask(_ text: String, in font: ResolvedFont) throws -> TextInk {
        let mask = try TextRasterizer.rasterize(text, font: font.textFont(in: nil), size: 30,
                                                frame: PixelRect(x: 0, y: 0, width: 900, height: 50), mode: .singleLine, padding: 4)
        return TextInk(mask: try Bitmap(mask.image))
    }

    @Test("The default title and description are Lato Heavy and Lato Medium, asked at their own weights")
    func defaults() throws {
        let fonts = try FontResolver().fonts(for: CardStyle())
        #expect(fonts.title.family == "Lato Heavy" && fonts.title.weight == 800 && !fonts.title.italic)
        #expect(fonts.title.file.lastPathComponent == "Lato-Heavy.ttf")
        #expect(fonts.description.family == "Lato Medium" && fonts.description.weight == 500)
        #expect(fonts.description.file.lastPathComponent == "Lato-Medium.ttf")
    }

    @Test("A weight or italic picks the face within the named face's whole family",
          arguments: [
            (TextStyle(font: "Lato Heavy", weight: 400, size: 30, shadow: nil), "Lato", 400, "Lato-Regular.ttf"),
            (TextStyle(font: "Lato", weight: 900, size: 30, shadow: nil), "Lato", 900, "Lato-Black.ttf"),
            (TextStyle(font: "Lato", weight: 600, size: 30, shadow: nil), "Lato", 600, "Lato-Semibold.ttf"),
            (TextStyle(font: "Lato Heavy", italic: true, size: 30, shadow: nil), "Lato", 800, "Lato-HeavyItalic.ttf"),
            (TextStyle(font: "Noto Sans Arabic", weight: 700, size: 30, shadow: nil), "Noto Sans Arabic", 700,
             "NotoSansArabic-Bold.ttf"),
            // The family keeps the named face's width.
            (TextStyle(font: "DejaVu Sans Condensed", weight: 700, size: 30, shadow: nil), "DejaVu Sans Condensed", 700,
             "DejaVuSansCondensed-Bold.ttf"),
            (TextStyle(font: "Lato", fontFile: URL(fileURLWithPath: "/usr/share/fonts/truetype/lato/Lato-Heavy.ttf"),
                       size: 30, shadow: nil), "Lato Heavy", 800, "Lato-Heavy.ttf"),
            (TextStyle(font: "Lato", fontFile: URL(fileURLWithPath: "/usr/share/fonts/truetype/lato/Lato-Heavy.ttf"),
                       weight: 400, size: 30, shadow: nil), "Lato", 400, "Lato-Regular.ttf"),
          ])
    func faceWithinFamily(style: TextStyle, family: String, weight: Int, file: String) throws {
        let font: ResolvedFont
        do {
            font = try Self.resolve(style)
        } catch {
            try Test.cancel("\(style.fontRequest) cannot be resolved here (\(error)): install fonts-lato and fonts-noto-core")
        }
        #expect(font.family == family)
        #expect(font.weight == weight)
        #expect(font.italic == style.italic)
        #expect(font.file.lastPathComponent == file)
    }

    @Test("A title at the default heavy weight has clearly heavier strokes than at 400, in every script", arguments: samples)
    func heavierStrokes(sample: ScriptSample) throws {
        let resolver = FontResolver()
        let heavy = try Self.resolve(Self.title())
        let regular = try Self.resolve(Self.title(weight: 400))
        let regularCoverage = try resolver.coverage(of: sample.text, in: regular, size: 30)
        if !regularCoverage.missing.isEmpty {
            try Test.cancel("no installed font draws the \(sample.script) sample; install \(sample.package) (`make deps` does)")
        }
        let heavyCoverage = try resolver.coverage(of: sample.text, in: heavy, size: 30)
        let heavyWidth = try Self.mask(sample.text, in: heavy).meanStrokeWidth
        let regularWidth = try Self.mask(sample.text, in: regular).meanStrokeWidth
        let drawn = { (coverage: TextCoverage) in coverage.fonts.map(\.file.lastPathComponent).joined(separator: ", ") }
        #expect(heavyWidth > regularWidth * 1.2,
                """
                \(sample.script): mean stroke width \(heavyWidth) px at 800 (\(drawn(heavyCoverage))) against \
                \(regularWidth) px at 400 (\(drawn(regularCoverage)))
                """)
    }

    /// Lato Regular and Lato Bold in one collection, renamed Qato so no installed font shares its family;
    /// nil without fonts-lato. Left in the temporary folder: fontconfig holds a registered file for the
    /// process's life.
    static let collection: URL? = {
        let lato = URL(fileURLWithPath: "/usr/share/fonts/truetype/lato")
        guard let regular = try? Data(contentsOf: lato.appendingPathComponent("Lato-Regular.ttf")),
              let bold = try? Data(contentsOf: lato.appendingPathComponent("Lato-Bold.ttf")) else { return nil }
        let bytes = FontCollection.bytes(of: [regular, bold], renaming: "Lato", to: "Qato")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardbake-test-fonts")
        let file = folder.appendingPathComponent("Qato-\(bytes.count).ttc")
        if (try? Data(contentsOf: file)) != bytes {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? bytes.write(to: file, options: .atomic)
        }
        return file
    }()

    @Test("A font file holding several weights gives its face at the asked weight; asked none, its first face")
    func fileWithSeveralWeights() throws {
        guard let file = Self.collection else {
            try Test.cancel("the test's font collection is made of Lato Regular and Bold: install fonts-lato")
        }
        let first = try Self.resolve(TextStyle(font: "Lato", fontFile: file, size: 30, shadow: nil))
        let bold = try Self.resolve(TextStyle(font: "Lato", fontFile: file, weight: 700, size: 30, shadow: nil))
        #expect(first.family == "Qato" && first.weight == 400 && first.file.path == file.path)
        #expect(bold.family == "Qato" && bold.weight == 700 && bold.file.path == file.path)
        let text = "Keel-billed Toucan"
        let (boldWidth, firstWidth) = (try Self.mask(text, in: bold).meanStrokeWidth, try Self.mask(text, in: first).meanStrokeWidth)
        #expect(boldWidth > firstWidth * 1.2, "mean stroke width \(boldWidth) px at 700 against \(firstWidth) px at 400")
    }

    @Test("Italic slants every script's fallback too: the text is drawn from other faces than upright")
    func italicFallback() throws {
        let resolver = FontResolver()
        let upright = try resolver.coverage(of: "Toucan טוקן", in: try Self.resolve(Self.title()), size: 30)
        let italic = try resolver.coverage(of: "Toucan טוקן", in: try Self.resolve(Self.title(italic: true)), size: 30)
        #expect(upright.fonts.count == 2 && italic.fonts.count == 2)
        #expect(Set(italic.fonts.map(\.file)).isDisjoint(with: upright.fonts.map(\.file)),
                "\(italic.fonts.map(\.file.lastPathComponent)) against \(upright.fonts.map(\.file.lastPathComponent))")
    }

    @Test("A style without weight or italic renders Latin text exactly as one that asked Pango for the family alone")
    func defaultLookUnchanged() throws {
        // Before weights, the fonts were asked by family name alone, which Pango takes at its normal weight (400).
        let source = try TestImage.blocks(width: 480, height: 360)
        let style = CardStyle()
        let resolved = try FontResolver().fonts(for: style)
        let familyOnly = ResolvedFonts(
            title: ResolvedFont(family: "Lato Heavy", weight: 400, italic: false, file: resolved.title.file, digest: resolved.title.digest),
            description: ResolvedFont(family: "Lato Medium", weight: 400, italic: false, file: resolved.description.file,
                                      digest: resolved.description.digest))
        let title = "Tom & Jerry <3 and a title far too long to fit"
        let description = "Justified text over the blurred photo, with “quotes”, café, naïve — and more. "
            + String(repeating: "More words follow here. ", count: 30)
        for scale in [1, 3] {
            let now = try CardRendererTests.render(source, title: title, description: description, style: style, scale: scale)
            let before = try CardRendererTests.render(source, title: title, description: description, style: style,
                                                      fonts: familyOnly, scale: scale)
            #expect(now.bitmap.samples == before.bitmap.samples, "the card at \(scale)x differs from the family-only render")
        }
    }
}
