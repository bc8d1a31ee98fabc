import CVips
import CVipsShim

/// The handful of libvips operations cardbake composes cards with. Each returns a new lazy image.
extension VipsImage {
    /// Gaussian blur, in float precision; edges are what libvips' convolution gives, so callers that
    /// need extended edges embed first (see ``blurredExtendingEdges(sigma:)``).
    ///
    /// Float only: an integer-precision blur compiles an orc program each time it is built, the
    /// case that crashed in orc 0.4.33's code allocator on several threads (see `Vips.pipelineLock`).
    public func gaussianBlurred(sigma: Double) throws(VipsError) -> VipsImage {
        try Self.make("gaussblur") { cvips_gaussblur(pointer, $0, sigma, VIPS_PRECISION_FLOAT) }
    }

    /// Gaussian blur where pixels beyond the edges repeat the edge pixels, so no dark or transparent
    /// fringe appears at the borders. The size is unchanged.
    public func blurredExtendingEdges(sigma: Double) throws(VipsError) -> VipsImage {
        guard sigma > 0 else { return self }
        let margin = Int((3 * sigma).rounded(.up)) + 1
        return try embedExtendingEdges(margin: margin)
            .gaussianBlurred(sigma: sigma)
            .cropped(x: margin, y: margin, width: width, height: height)
    }

    /// Enlarges by `margin` pixels on every side, repeating edge pixels.
    public func embedExtendingEdges(margin: Int) throws(VipsError) -> VipsImage {
        try Self.make("embed") {
            cvips_embed_extend(pointer, $0, Int32(margin), Int32(margin),
                               Int32(width + 2 * margin), Int32(height + 2 * margin))
        }
    }

    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(VipsError) -> VipsImage {
        try Self.make("extract_area") {
            cvips_extract_area(pointer, $0, Int32(x), Int32(y), Int32(width), Int32(height))
        }
    }

    public func extractBands(_ first: Int, count: Int) throws(VipsError) -> VipsImage {
        try Self.make("extract_band") { cvips_extract_bands(pointer, $0, Int32(first), Int32(count)) }
    }

    public func cast(to format: VipsBandFormat) throws(VipsError) -> VipsImage {
        try Self.make("cast") { cvips_cast(pointer, $0, format) }
    }

    /// Rounds every sample to the nearest integer (ties to even), then casts to 8 bits (which clamps to 0...255).
    public func roundedToUInt8() throws(VipsError) -> VipsImage {
        try Self.make("round") { cvips_rint(pointer, $0) }.cast(to: VIPS_FORMAT_UCHAR)
    }

    /// The same pixels labelled as sRGB, without conversion (images made from memory arrive with a guess).
    public func labelledSRGB() throws(VipsError) -> VipsImage {
        try Self.make("copy") { cvips_copy_interpretation(pointer, $0, VIPS_INTERPRETATION_sRGB) }
    }

    /// The same image with float samples.
    public func castToFloat() throws(VipsError) -> VipsImage {
        try cast(to: VIPS_FORMAT_FLOAT)
    }

    /// A `width × height` image of one colour, as float samples (one value per band).
    public static func filled(width: Int, height: Int, with samples: [Float]) throws(VipsError) -> VipsImage {
        try fromPixels(samples, width: 1, height: 1, bands: samples.count).replicated(across: width, down: height)
    }

    public func colourspace(_ space: VipsInterpretation) throws(VipsError) -> VipsImage {
        try Self.make("colourspace") { cvips_colourspace(pointer, $0, space) }
    }

    /// Removes alpha by compositing over an opaque colour (0–255 per colour band).
    public func flattened(over background: [Double]) throws(VipsError) -> VipsImage {
        try Self.make("flatten") { cvips_flatten(pointer, $0, background, Int32(background.count)) }
    }

    /// `self × multiplier + offset`, per band when the arrays have one value per band.
    public func linear(_ multiplier: [Double], _ offset: [Double]) throws(VipsError) -> VipsImage {
        precondition(multiplier.count == offset.count)
        return try Self.make("linear") { cvips_linear(pointer, $0, multiplier, offset, Int32(multiplier.count)) }
    }

    public func replicated(across: Int, down: Int) throws(VipsError) -> VipsImage {
        try Self.make("replicate") { cvips_replicate(pointer, $0, Int32(across), Int32(down)) }
    }
}

