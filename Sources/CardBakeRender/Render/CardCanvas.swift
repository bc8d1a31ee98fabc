import CardBakeCatalog
import Vips

/// One card at one scale being painted in memory: opaque RGB samples (floats, 0–255) onto which
/// layers are composited source-over, one after another, touching only the pixels a layer covers.
///
/// The arithmetic is that of libvips' `composite` over an opaque base, but libvips would compute
/// every layer over the whole card; a card's layers are small or sparse (text, hairlines, the
/// gradient over half the photo), so painting only their rectangles is several times cheaper.
package struct CardCanvas {
    package let width: Int
    package let height: Int
    private var samples: [Float]

    /// A `width × height` canvas holding the background enlarged to its size.
    package init(background: BackgroundImage, width: Int, height: Int) {
        self.width = width
        self.height = height
        samples = background.samples(scaledToWidth: width, height: height)
    }

    /// Composites `layer` source-over at its position, clipped to the canvas.
    package mutating func draw(_ layer: CompositeLayer) throws(VipsError) {
        let image = layer.image
        precondition(layer.color == nil ? image.bands == 3 || image.bands == 4 : image.bands == 1,
                     "a layer is RGB, RGBA or a one-band coverage mask with a colour")
        let columns = max(0, layer.x)..<min(width, layer.x + image.width)
        let rows = max(0, layer.y)..<min(height, layer.y + image.height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        // Read in the layer's own sample type: an 8-bit photo or mask is a quarter of its float copy.
        if image.format == UInt8.bandFormat {
            draw(layer, samples: try image.pixels(as: UInt8.self), columns: columns, rows: rows)
        } else {
            draw(layer, samples: try image.pixels(as: Float.self), columns: columns, rows: rows)
        }
    }

    /// The painted card as an 8-bit sRGB image: every sample rounded to the nearest integer (ties
    /// to even, as libvips' `rint`) and clipped to 0–255.
    package func bitmap() throws(VipsError) -> VipsImage {
        let bytes = [UInt8](unsafeUninitializedCapacity: samples.count) { bytes, count in
            samples.withUnsafeBufferPointer { samples in
                for index in samples.indices {
                    bytes[index] = Self.roundedByte(samples[index])
                }
            }
            count = samples.count
        }
        return try VipsImage.fromPixels(bytes, width: width, height: height, bands: 3).labelledSRGB()
    }

    /// `sample` clipped to 0–255 and rounded to the nearest integer, ties to even. Adding 2²³ makes
    /// the float unit round (to nearest, ties to even) away every fraction, leaving the integer in
    /// the low bits: the same result as `rounded(.toNearestOrEven)`, which baseline x86-64 (no
    /// SSE4.1 `roundps`) can only do by calling `rintf` for each sample, where this vectorises.
    @inline(__always)
    private static func roundedByte(_ sample: Float) -> UInt8 {
        let clipped = min(max(sample, 0), 255)
        return UInt8(truncatingIfNeeded: (clipped + 0x1p23).bitPattern)
    }

    private mutating func draw<Sample: CanvasSample>(_ layer: CompositeLayer, samples source: [Sample],
                                                     columns: Range<Int>, rows: Range<Int>) {
        let canvasWidth = width
        let (layerWidth, bands) = (layer.image.width, layer.image.bands)
        samples.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { source in
                for y in rows {
                    let canvasRow = (y * canvasWidth + columns.lowerBound) * 3
                    let sourceRow = ((y - layer.y) * layerWidth + columns.lowerBound - layer.x) * bands
                    if let color = layer.color {
                        Self.paint(color, through: source, from: sourceRow, over: canvas, at: canvasRow,
                                   pixels: columns.count)
                    } else if bands == 3 {
                        Self.copy(source, from: sourceRow, to: canvas, at: canvasRow, pixels: columns.count)
                    } else {
                        Self.blend(source, from: sourceRow, over: canvas, at: canvasRow, pixels: columns.count)
                    }
                }
            }
        }
    }

    private static func copy<Sample: CanvasSample>(_ source: UnsafeBufferPointer<Sample>, from start: Int,
                             to canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        for index in 0..<pixels * 3 {
            canvas[offset + index] = source[start + index].floatValue
        }
    }

    private static func paint<Sample: CanvasSample>(_ color: CardColor, through coverage: UnsafeBufferPointer<Sample>, from start: Int,
                              over canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        let opacity = Float(color.alpha) / 255
        let (red, green, blue) = (Float(color.red), Float(color.green), Float(color.blue))
        for pixel in 0..<pixels {
            let alpha = min(max(coverage[start + pixel].floatValue * opacity, 0), 1)
            guard alpha > 0 else { continue }
            let c = offset + pixel * 3
            let keep = 1 - alpha
            canvas[c] = red * alpha + canvas[c] * keep
            canvas[c + 1] = green * alpha + canvas[c + 1] * keep
            canvas[c + 2] = blue * alpha + canvas[c + 2] * keep
        }
    }

    private static func blend<Sample: CanvasSample>(_ source: UnsafeBufferPointer<Sample>, from start: Int,
                              over canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        for pixel in 0..<pixels {
            let s = start + pixel * 4
            let alpha = min(max(source[s + 3].floatValue / 255, 0), 1)
            guard alpha > 0 else { continue }
            let c = offset + pixel * 3
            let keep = 1 - alpha
            canvas[c] = source[s].floatValue * alpha + canvas[c] * keep
            canvas[c + 1] = source[s + 1].floatValue * alpha + canvas[c + 1] * keep
            canvas[c + 2] = source[s + 2].floatValue * alpha + canvas[c + 2] * keep
        }
    }
}

/// A sample type a layer's pixels are read in.
package protocol CanvasSample: VipsSample {
    var floatValue: Float { get }
}

extension UInt8: CanvasSample {
    package var floatValue: Float { Float(self) }
}

extension Float: CanvasSample {
    package var floatValue: Float { self }
}
