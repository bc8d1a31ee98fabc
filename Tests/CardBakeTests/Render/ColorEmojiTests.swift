import Foundation
@testable import CardBakeCatalog
@testable import CardBakeRender
import Testing
import Vips

/// Emoji come from fontconfig's fallback for the card fonts (Noto Color Emoji) and are drawn in
/// their own colours over the text's shadow, which they cast too.
@Suite("Colour emoji", .vips)
struct ColorEmojiTests {
    static let text = "🦜 Toucan 🍓"
    static let titleFont = TextFont(family: "Lato Heavy", weight: 800)
    static let scale = 2

    /// A grey photo: every colour on its card but the emoji's is a grey.
    static func source() throws -> VipsImage {
        try TestImage.solid(width: 400, height: 400, [128, 128, 128])
    }

    /// The card at 2x with `text` as its title and description.
    static func render(_ text: String = text, style: CardStyle = CardStyle()) throws -> Bitmap {
        try CardRendererTests.render(try source(), title: text, description: text, style: style, scale: scale).bitmap
    }

    /// The title's and the description's layers at 2x, as the card with `text` draws them.
    static func labelLayers(_ text: String = text, style: CardStyle = CardStyle()) throws -> [[CompositeLayer]] {
        let card = Card(id: "emoji", image: URL(fileURLWithPath: "/dev/null"), title: text, description: text,
                        style: style, index: 0)
        let layout = CardLayout(style: style, sourceWidth: 400, sourceHeight: 400)
        let renderer = CardRenderer(card: card, layout: layout, fonts: try FontResolver().fonts(for: style))
        return [try renderer.title.layers(atScale: scale), try renderer.description.layers(atScale: scale)]
    }

    /// Pixels whose largest and smallest colour band differ by more than 100: saturated colours.
    static func saturatedPixels(in bitmap: Bitmap) -> Int {
        let samples = bitmap.samples
        return stride(from: 0, to: samples.count, by: 3).filter { start in
            let (red, green, blue) = (samples[start], samples[start + 1], samples[start + 2])
            return max(red, green, blue) - min(red, green, blue) > 100
        }.count
    }

    @Test("Emoji in a title and a description are drawn in saturated colours",
          arguments: [text, "👩‍👩‍👧 🏳️‍🌈 🇨🇭"])
    func colour(text: String) throws {
        let emoji = try Self.render(text)
        let plain = try Self.render("Toucan")
        #expect(Self.saturatedPixels(in: emoji) > 1000)
        #expect(Self.saturatedPixels(in: plain) == 0)
    }

    @Test("Where an emoji is opaque the card shows its colours, not a silhouette in the text's colour")
    func notASilhouette() throws {
        let bitmap = try Self.render()
        for layers in try Self.labelLayers() {
            let emoji = try EmojiPixels(try #require(layers.last))
            let opaque = emoji.pixels.filter { $0.alpha == 255 }
            #expect(opaque.count > 500)
            let largest = opaque.map { pixel in
                zip(bitmap.pixel(pixel.x, pixel.y), pixel.rgb).map { abs(Float($0) - $1) }.max()!
            }.max()!
            #expect(largest <= 1)
        }
    }

    @Test("The text's coverage mask leaves the emoji out; its shadow takes them in")
    func maskAndShadow() throws {
        let frame = PixelRect(x: 0, y: 0, width: 400, height: 60)
        let mask = try TextRasterizer.rasterize(Self.text, font: Self.titleFont, size: 40, frame: frame,
                                                mode: .singleLine, padding: 10)
        let glyphs = try #require(mask.colorGlyphs)
        let emoji = glyphs.alpha.indices.filter { glyphs.alpha[$0] > 0 }
        #expect(emoji.count > 1000)
        #expect(emoji.allSatisfy { mask.pixels[$0] == 0 })
        let whole = mask.wholeCoverage
        #expect(emoji.allSatisfy { whole[$0] == glyphs.alpha[$0] })
        #expect(mask.pixels.filter { $0 > 0 }.count > 1000, "the word between the emoji has ink")
    }

    @Test("Text in no colour font has no colour layer, and its shadow is cast by its mask")
    func plainText() throws {
        let frame = PixelRect(x: 0, y: 0, width: 400, height: 60)
        let mask = try TextRasterizer.rasterize("Toucan & Crème", font: Self.titleFont, size: 40, frame: frame,
                                                mode: .singleLine, padding: 10)
        #expect(mask.colorGlyphs == nil)
        #expect(mask.wholeCoverage == mask.pixels)
        #expect(try Self.labelLayers("Toucan").allSatisfy { $0.count == 2 })
    }

    @Test("Emoji cast the text's shadow")
    func shadow() throws {
        // Given a strong shadow 4 points down, with little blur
        var style = CardStyle()
        let shadow = ShadowStyle(color: CardColor(red: 0, green: 0, blue: 0), offsetX: 0, offsetY: 4, radius: 1)
        style.title.shadow = shadow
        style.description.shadow = shadow
        let drop = Int(shadow.offsetY) * Self.scale

        // Then each label's shadow layer covers where its emoji are, moved down by the offset
        let labels = try Self.labelLayers(style: style)
        for layers in labels {
            let (cast, emoji) = (try Bitmap(layers[0].image), try EmojiPixels(try #require(layers.last)))
            let covered = emoji.pixels.filter { $0.alpha == 255 }.map {
                cast.pixel($0.x - layers[0].x, $0.y + drop - layers[0].y)[0]
            }
            #expect(covered.count > 500)
            #expect(Double(covered.reduce(0, +)) / Double(covered.count) > 220)
        }

        // And on the card, the description's pixels just below its emoji are darker than without a shadow
        let shaded = try Self.render(style: style)
        style.description.shadow = nil
        let unshaded = try Self.render(style: style)
        let emoji = try EmojiPixels(try #require(labels[1].last))
        let below = emoji.pixels.filter { $0.alpha == 255 && emoji.alpha(at: $0.x, $0.y + drop) == 0 }
        #expect(below.count > 20)
        let darkening = below.map { shaded.brightness($0.x, $0.y + drop) - unshaded.brightness($0.x, $0.y + drop) }
        #expect(darkening.reduce(0, +) / Double(below.count) < -40)
    }

    @Test("The same card with emoji renders to the same pixels twice")
    func deterministic() throws {
        #expect(try Self.render().samples == Self.render().samples)
    }

    @Test("Cairo's premultiplied ARGB becomes straight RGBA")
    func conversion() throws {
        let argb: [UInt32] = [0x8040_2000, 0xFFFF_8001, 0x0000_0000, 0x0101_0000]
        let glyphs = try argb.withUnsafeBufferPointer { try ColorGlyphs(argb: $0, width: 2, height: 2) }
        let samples: [Float] = try glyphs.image.pixels()
        #expect(samples == [127.5, 63.75, 0, 128, 255, 128, 1, 255, 0, 0, 0, 0, 255, 0, 0, 1])
        #expect(glyphs.alpha == [128, 255, 0, 1])
    }
}

/// The pixels of a label's colour layer, in card coordinates.
private struct EmojiPixels {
    struct Pixel {
        let x: Int
        let y: Int
        /// Straight (not premultiplied) red, green and blue.
        let rgb: [Float]
        let alpha: Float
    }

    let pixels: [Pixel]
    private let alphaByPosition: [Int: [Int: Float]]

    init(_ layer: CompositeLayer) throws {
        #expect(layer.color == nil && layer.image.bands == 4, "the label's last layer is its emoji")
        let (width, samples) = (layer.image.width, try layer.image.pixels(as: Float.self))
        pixels = stride(from: 0, to: samples.count, by: 4).compactMap { start in
            guard samples[start + 3] > 0 else { return nil }
            let index = start / 4
            return Pixel(x: layer.x + index % width, y: layer.y + index / width,
                         rgb: Array(samples[start..<start + 3]), alpha: samples[start + 3])
        }
        alphaByPosition = Dictionary(grouping: pixels, by: \.y).mapValues {
            Dictionary(uniqueKeysWithValues: $0.map { ($0.x, $0.alpha) })
        }
    }

    /// The alpha at a card position: 0 where the layer draws nothing.
    func alpha(at x: Int, _ y: Int) -> Float {
        alphaByPosition[y]?[x] ?? 0
    }
}
