import Vips

/// Something painted source-over on the card at a pixel position: an RGB or RGBA image, or a
/// one-band coverage mask (0–255) painted in one colour, as text and its shadow are.
struct CompositeLayer {
    let image: VipsImage
    /// The colour a coverage mask paints; nil when `image` carries its own colours.
    let color: Color?
    let x: Int
    let y: Int

    /// An RGB (opaque) or RGBA (alpha 0–255, not premultiplied) image.
    init(image: VipsImage, x: Int, y: Int) {
        self.image = image
        color = nil
        self.x = x
        self.y = y
    }

    /// A one-band mask: each pixel paints `color` at the colour's alpha times the mask's coverage.
    init(coverage: VipsImage, color: Color, x: Int, y: Int) {
        image = coverage
        self.color = color
        self.x = x
        self.y = y
    }
}
