import CardBakeCatalog
import Vips

/// Something painted source-over on the card at a pixel position: an RGB or RGBA image, or a
/// one-band coverage mask (0–255) painted in one colour, as text and its shadow are.
package struct CompositeLayer {
    package let image: VipsImage
    /// The colour a coverage mask paints; nil when `image` carries its own colours.
    package let color: CardColor?
    package let x: Int
    package let y: Int

    /// An RGB (opaque) or RGBA (alpha 0–255, not premultiplied) image.
    package init(image: VipsImage, x: Int, y: Int) {
        self.image = image
        color = nil
        self.x = x
        self.y = y
    }

    /// A one-band mask: each pixel paints `color` at the colour's alpha times the mask's coverage.
    package init(coverage: VipsImage, color: CardColor, x: Int, y: Int) {
        image = coverage
        self.color = color
        self.x = x
        self.y = y
    }
}
