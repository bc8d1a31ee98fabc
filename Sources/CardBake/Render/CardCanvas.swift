import Vips

/// One card at one scale being painted in memory: opaque RGB samples (floats, 0–255) onto which
/// layers are composited source-over, one after another, touching only the pixels a layer covers.
///
/// The arithmetic is that of libvips' `composite` over an opaque base, but libvips would compute
/// every layer over the whole card; a card's layers are small or sparse (text, hairlines, the
/// gradient over half the photo), so painting only their rectangles is several times cheaper.
struct CardCanvas {
    let width: Int
    let height: Int
    private var samples: [Float]

    /// A `width × height` canvas holding the background enlarged to its size.
    init(background: BackgroundImage, width: Int, height: Int) {
        self.width = width
        self.height = height
        samples = background.samples(scaledToWidth: width, height: height)
    }

    /// Composites `layer` source-over at its position, clipped to the canvas.
    mutating func draw(_ layer: CompositeLayer) throws(VipsError) {
        let image = layer.image
        precondition(layer.color == nil ? image.bands == 3 || image.bands == 4 : image.bands == 1,
                     "a layer is RGB, RGBA or a one-band coverage mask with a colour")
        let columns = max(0, layer.x)..<min(width, layer.x + image.width)
        let rows = max(0, layer.y)..<min(height, layer.y + image.height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let source = try image.pixels(as: Float.self)
        let canvasWidth = width
        let bands = image.bands
        samples.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { source in
                for y in rows {
                    let canvasRow = (y * canvasWidth + columns.lowerBound) * 3
                    let sourceRow = ((y - layer.y) * image.width + columns.lowerBound - layer.x) * bands
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

    /// The painted card as an 8-bit sRGB image: every sample rounded to the nearest integer and
    /// clipped to 0–255.
    func bitmap() throws(VipsError) -> VipsImage {
        try VipsImage.fromPixels(samples, width: width, height: height, bands: 3).roundedToUInt8().labelledSRGB()
    }

    private static func copy(_ source: UnsafeBufferPointer<Float>, from start: Int,
                             to canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        for index in 0..<pixels * 3 {
            canvas[offset + index] = source[start + index]
        }
    }

    private static func paint(_ color: Color, through coverage: UnsafeBufferPointer<Float>, from start: Int,
                              over canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        let opacity = Float(color.alpha) / 255
        let (red, green, blue) = (Float(color.red), Float(color.green), Float(color.blue))
        for pixel in 0..<pixels {
            let alpha = min(max(coverage[start + pixel] * opacity, 0), 1)
            guard alpha > 0 else { continue }
            let c = offset + pixel * 3
            let keep = 1 - alpha
            canvas[c] = red * alpha + canvas[c] * keep
            canvas[c + 1] = green * alpha + canvas[c + 1] * keep
            canvas[c + 2] = blue * alpha + canvas[c + 2] * keep
        }
    }

    private static func blend(_ source: UnsafeBufferPointer<Float>, from start: Int,
                              over canvas: UnsafeMutableBufferPointer<Float>, at offset: Int, pixels: Int) {
        for pixel in 0..<pixels {
            let s = start + pixel * 4
            let alpha = min(max(source[s + 3] / 255, 0), 1)
            guard alpha > 0 else { continue }
            let c = offset + pixel * 3
            let keep = 1 - alpha
            canvas[c] = source[s] * alpha + canvas[c] * keep
            canvas[c + 1] = source[s + 1] * alpha + canvas[c + 1] * keep
            canvas[c + 2] = source[s + 2] * alpha + canvas[c + 2] * keep
        }
    }
}
