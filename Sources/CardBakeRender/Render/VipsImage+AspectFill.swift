import Vips

extension VipsImage {
    /// The centre of the image cropped to `aspect` (width / height), as aspect-fill (cover) shows it: the
    /// full width or the full height stays, and rounding the other to whole pixels costs under one pixel.
    package func centreCropped(toAspect aspect: Double) throws(VipsError) -> VipsImage {
        let cropWidth = min(width, max(1, Int((Double(height) * aspect).rounded())))
        let cropHeight = min(height, max(1, Int((Double(width) / aspect).rounded())))
        return try cropped(x: (width - cropWidth) / 2, y: (height - cropHeight) / 2, width: cropWidth, height: cropHeight)
    }
}
