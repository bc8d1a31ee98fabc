import Vips

/// An RGBA image placed at a pixel position on the card, composited source-over.
struct CompositeLayer {
    let image: VipsImage
    let x: Int
    let y: Int
}
