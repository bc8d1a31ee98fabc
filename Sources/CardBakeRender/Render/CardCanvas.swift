import CardBakeCatalog
import Vips

/// One card at one scale being painted: opaque RGB samples (floats, 0–255) onto which layers are
/// composited source-over, one after another, touching only the pixels a layer covers.
///
/// The arithmetic is that of libvips' `composite` over an opaque base, but libvips would compute
/// every layer over the whole card; a card's layers are small or sparse (text, hairlines, the
/// gradient over half the photo), so painting only their rectangles is several times cheaper.
///
/// Layers are read by ``draw(_:)``, which keeps their pixels and not their libvips images, and
/// painted as libvips reads ``bitmap()``, a band of rows at a time, each band rounded into the rows
/// libvips asked for as soon as it is done: a worker holds a band of floats and the strip being
/// encoded, not the card (18 MB of floats or 4.7 MB of bytes at 3x). Every pixel sees the same
/// operations in the same order either way, so the bitmap does not depend on the band height.
package struct CardCanvas: Sendable {
    package let width: Int
    package let height: Int
    private let background: BackgroundImage.Enlargement
    private var layers: [LayerPixels] = []
    /// Where the first layer, opaque RGB, paints over the background, which is not filled there.
    private var hidden: PixelRect?

    /// Rows painted at a time: a band of a 3x card is 368 KB of floats.
    package static let rowsPerBand = 32

    /// A `width × height` canvas holding the background enlarged to its size.
    package init(background: BackgroundImage, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.background = BackgroundImage.Enlargement(background, width: width, height: height)
    }

    /// Composites `layer` source-over at its position, clipped to the canvas, over the layers drawn before.
    package mutating func draw(_ layer: CompositeLayer) throws(VipsError) {
        let image = layer.image
        precondition(layer.color == nil ? image.bands == 3 || image.bands == 4 : image.bands == 1,
                     "a layer is RGB, RGBA or a one-band coverage mask with a colour")
        let columns = (layer.x..<layer.x + layer.width).clamped(to: 0..<width)
        let rows = (layer.y..<layer.y + image.height).clamped(to: 0..<height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        // Read in the layer's own sample type: an 8-bit photo or mask is a quarter of its float copy.
        let samples: LayerPixels.Samples = image.format == UInt8.bandFormat
            ? .bytes(try image.pixels(as: UInt8.self)) : .floats(try image.pixels(as: Float.self))
        if layers.isEmpty, layer.color == nil, image.bands == 3 {
            hidden = PixelRect(x: columns.lowerBound, y: rows.lowerBound, width: columns.count, height: rows.count)
        }
        layers.append(LayerPixels(samples: samples, width: image.width, bands: image.bands, color: layer.color,
                                  repeatsColumn: layer.width != image.width,
                                  x: layer.x, y: layer.y, columns: columns, rows: rows))
    }

    /// The painted card as an 8-bit sRGB image: every sample rounded to the nearest integer (ties
    /// to even, as libvips' `rint`) and clipped to 0–255. The image holds no pixels: libvips has the
    /// rows it asks for painted when it computes them, so encoding the card never holds its whole
    /// bitmap, and each read paints again (use `inMemory()` for an image read more than once).
    package func bitmap(rowsPerBand: Int = CardCanvas.rowsPerBand) throws(VipsError) -> VipsImage {
        try VipsImage.generated(width: width, height: height, bands: 3) { [self] rows, columns, memory, rowBytes in
            paint(rows: rows, columns: columns, into: memory, rowBytes: rowBytes, rowsPerBand: rowsPerBand)
        }
    }

    /// Paints `rows`, `rowsPerBand` at a time in floats, and rounds their `columns` into `memory`,
    /// whose rows are `rowBytes` apart.
    private func paint(rows: Range<Int>, columns: Range<Int>, into memory: UnsafeMutableRawPointer, rowBytes: Int,
                       rowsPerBand: Int) {
        let rowLength = width * 3
        var band = [Float](repeating: 0, count: min(rowsPerBand, rows.count) * rowLength)
        band.withUnsafeMutableBufferPointer { band in
            for first in stride(from: rows.lowerBound, to: rows.upperBound, by: rowsPerBand) {
                let painted = first..<min(first + rowsPerBand, rows.upperBound)
                background.fill(rows: painted, except: hidden, into: band)
                for layer in layers {
                    paint(layer, rows: painted, into: band)
                }
                for row in painted {
                    let bytes = (memory + (row - rows.lowerBound) * rowBytes).assumingMemoryBound(to: UInt8.self)
                    let start = (row - first) * rowLength + columns.lowerBound * 3
                    Self.round(UnsafeBufferPointer(rebasing: band[start..<start + columns.count * 3]), into: bytes)
                }
            }
        }
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

    /// Each of `samples` as ``roundedByte(_:)`` into `bytes`. The loop indexes two buffers from 0, with
    /// no offset arithmetic the compiler must check for overflow, so that it vectorises.
    private static func round(_ samples: UnsafeBufferPointer<Float>, into bytes: UnsafeMutablePointer<UInt8>) {
        for index in samples.indices {
            bytes[index] = roundedByte(samples[index])
        }
    }

    /// Paints the part of `layer` within `band`'s `rows` (the band starts at row `rows.lowerBound`).
    private func paint(_ layer: LayerPixels, rows band: Range<Int>, into canvas: UnsafeMutableBufferPointer<Float>) {
        let rows = layer.rows.clamped(to: band)
        guard !rows.isEmpty else { return }
        switch layer.samples {
        case .bytes(let samples): paint(layer, samples: samples, rows: rows, bandStart: band.lowerBound, into: canvas)
        case .floats(let samples): paint(layer, samples: samples, rows: rows, bandStart: band.lowerBound, into: canvas)
        }
    }

    private func paint<Sample: CanvasSample>(_ layer: LayerPixels, samples source: [Sample], rows: Range<Int>,
                                             bandStart: Int, into canvas: UnsafeMutableBufferPointer<Float>) {
        let (columns, x, y, color) = (layer.columns, layer.x, layer.y, layer.color)
        let (layerWidth, bands) = (layer.width, layer.bands)
        // A repeated column gives every pixel of a row its row's one sample.
        let step = layer.repeatsColumn ? 0 : 1
        source.withUnsafeBufferPointer { source in
            for row in rows {
                let canvasRow = ((row - bandStart) * width + columns.lowerBound) * 3
                let sourceRow = ((row - y) * layerWidth + (columns.lowerBound - x) * step) * bands
                let target = UnsafeMutableBufferPointer(rebasing: canvas[canvasRow..<canvasRow + columns.count * 3])
                let samples = UnsafeBufferPointer(rebasing: source[sourceRow...])
                if let color {
                    if layer.repeatsColumn {
                        Self.paint(color, coverage: samples[0], over: target)
                    } else {
                        Self.paint(color, through: samples, over: target)
                    }
                } else if bands == 3 {
                    Self.copy(samples, to: target)
                } else {
                    Self.blend(samples, over: target)
                }
            }
        }
    }

    // The per-row loops below index buffers from 0 and do the same arithmetic for every pixel (a
    // pixel a layer does not cover blends with alpha 0, which leaves it exactly as it was), so that
    // they vectorise.

    private static func copy<Sample: CanvasSample>(_ source: UnsafeBufferPointer<Sample>,
                                                   to canvas: UnsafeMutableBufferPointer<Float>) {
        for index in canvas.indices {
            canvas[index] = source[index].floatValue
        }
    }

    /// Paints `color` through one coverage sample per pixel.
    private static func paint<Sample: CanvasSample>(_ color: CardColor, through coverage: UnsafeBufferPointer<Sample>,
                                                    over canvas: UnsafeMutableBufferPointer<Float>) {
        let opacity = Float(color.alpha) / 255
        let (red, green, blue) = (Float(color.red), Float(color.green), Float(color.blue))
        for pixel in 0..<canvas.count / 3 {
            let alpha = min(max(coverage[pixel].floatValue * opacity, 0), 1)
            let keep = 1 - alpha
            canvas[pixel * 3] = red * alpha + canvas[pixel * 3] * keep
            canvas[pixel * 3 + 1] = green * alpha + canvas[pixel * 3 + 1] * keep
            canvas[pixel * 3 + 2] = blue * alpha + canvas[pixel * 3 + 2] * keep
        }
    }

    /// Paints `color` at one coverage for every pixel.
    private static func paint<Sample: CanvasSample>(_ color: CardColor, coverage: Sample,
                                                    over canvas: UnsafeMutableBufferPointer<Float>) {
        let alpha = min(max(coverage.floatValue * (Float(color.alpha) / 255), 0), 1)
        let keep = 1 - alpha
        let (red, green, blue) = (Float(color.red) * alpha, Float(color.green) * alpha, Float(color.blue) * alpha)
        for pixel in 0..<canvas.count / 3 {
            canvas[pixel * 3] = red + canvas[pixel * 3] * keep
            canvas[pixel * 3 + 1] = green + canvas[pixel * 3 + 1] * keep
            canvas[pixel * 3 + 2] = blue + canvas[pixel * 3 + 2] * keep
        }
    }

    /// Blends RGBA samples (alpha 0–255) over the canvas.
    private static func blend<Sample: CanvasSample>(_ source: UnsafeBufferPointer<Sample>,
                                                    over canvas: UnsafeMutableBufferPointer<Float>) {
        for pixel in 0..<canvas.count / 3 {
            let s = pixel * 4
            let alpha = min(max(source[s + 3].floatValue / 255, 0), 1)
            let keep = 1 - alpha
            canvas[pixel * 3] = source[s].floatValue * alpha + canvas[pixel * 3] * keep
            canvas[pixel * 3 + 1] = source[s + 1].floatValue * alpha + canvas[pixel * 3 + 1] * keep
            canvas[pixel * 3 + 2] = source[s + 2].floatValue * alpha + canvas[pixel * 3 + 2] * keep
        }
    }
}

/// A layer drawn on a canvas: its pixels, read once, what they paint and where, and the part of the
/// canvas it covers. It does not keep the layer's libvips image, which can go once drawn.
private struct LayerPixels: Sendable {
    enum Samples: Sendable {
        case bytes([UInt8])
        case floats([Float])
    }

    let samples: Samples
    let width: Int
    let bands: Int
    /// The colour a one-band mask paints; nil for RGB or RGBA samples.
    let color: CardColor?
    /// Whether the samples are one column painted across every column the layer covers.
    let repeatsColumn: Bool
    let x: Int
    let y: Int
    let columns: Range<Int>
    let rows: Range<Int>
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
