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
    /// The width the layer covers: the image's, or more for a column of coverage repeated across.
    package let width: Int

    /// An RGB (opaque) or RGBA (alpha 0–255, not premultiplied) image.
    package init(image: VipsImage, x: Int, y: Int) {
        self.image = image
        color = nil
        self.x = x
        self.y = y
        width = image.width
    }

    /// A one-band mask: each pixel paints `color` at the colour's alpha times the mask's coverage.
    package init(coverage: VipsImage, color: CardColor, x: Int, y: Int) {
        image = coverage
        self.color = color
        self.x = x
        self.y = y
        width = coverage.width
    }

    /// A one-band mask one pixel wide, the same in every column of a `width`-wide rectangle: painted
    /// from the column, so a wide ramp costs one column of memory, not the rectangle.
    package init(coverageColumn column: VipsImage, across width: Int, color: CardColor, x: Int, y: Int) {
        precondition(column.width == 1, "a coverage column is one pixel wide")
        image = column
        self.color = color
        self.x = x
        self.y = y
        self.width = width
    }
}
