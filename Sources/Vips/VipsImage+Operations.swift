import CVips
import CVipsShim

/// The handful of libvips operations cardbake composes cards with. Each returns a new lazy image.
extension VipsImage {
    /// Resizes by separate horizontal and vertical factors (lanczos3; anti-aliased when shrinking).
    /// A reduction by 4 or more starts with a box shrink unless `boxShrinkFirst` is false: cheaper
    /// on large images, but libvips 8.14's is slow on small ones (bench/README.md, "The placeholder's
    /// data URL").
    ///
    /// An 8-bit reduction takes libvips' steps (`vips_resize`: `reducev`, then `reduceh`) with the
    /// horizontal one done by ``HorizontalReduction``, whose pixels are libvips' own.
    public func resized(horizontally hscale: Double, vertically vscale: Double,
                        boxShrinkFirst: Bool = true) throws(VipsError) -> VipsImage {
        let gap = boxShrinkFirst ? 2.0 : 0
        // vips_resize keeps at least one pixel a side.
        let (hscale, vscale) = (max(hscale, 1 / Double(width)), max(vscale, 1 / Double(height)))
        guard format == UInt8.bandFormat, bands <= 4, hscale < 1, vscale <= 1 else {
            return try resizedByLibvips(horizontally: hscale, vertically: vscale, gap: gap)
        }
        let reduced = vscale < 1 ? try Self.make("reducev") { cvips_reducev(pointer, $0, 1 / vscale, gap) } : self
        return try reduced.reducedHorizontally(by: 1 / hscale, gap: gap)
    }

    /// libvips' `vips_resize` with its `gap`, every step its own.
    func resizedByLibvips(horizontally hscale: Double, vertically vscale: Double, gap: Double) throws(VipsError) -> VipsImage {
        try Self.make("resize") { cvips_resize(pointer, $0, hscale, vscale, gap) }
    }

    /// libvips 8.14's `reduceh` (lanczos3) of this 8-bit image by `hshrink`: first a box shrink by the
    /// whole part of `hshrink / gap` (none for a gap of 0), then ``HorizontalReduction``.
    private func reducedHorizontally(by hshrink: Double, gap: Double) throws(VipsError) -> VipsImage {
        let outputWidth = Int(Double(width) / hshrink + 0.5)
        var (source, shrink, extraPixels) = (self, hshrink, Double(outputWidth) * hshrink - Double(width))
        let boxFactor = gap > 0 ? max(1, Int((Double(width) / Double(outputWidth) / gap).rounded(.down))) : 1
        if boxFactor > 1 {
            source = try Self.make("shrinkh") { cvips_shrinkh(pointer, $0, Int32(boxFactor)) }
            shrink /= Double(boxFactor)
            extraPixels /= Double(boxFactor)
        }
        if shrink == 1 { return source }
        let reduction = HorizontalReduction(inputWidth: source.width, shrink: shrink, outputWidth: outputWidth,
                                            extraPixels: extraPixels)
        let (inputWidth, height, bands) = (source.width, source.height, source.bands)
        func reduce(_ samples: UnsafeBufferPointer<UInt8>) throws(VipsError) -> VipsImage {
            try Self.fromPixels(width: outputWidth, height: height, bands: bands) { output in
                reduction.reduce(samples, inputWidth: inputWidth, height: height, bands: bands, into: output)
            }
        }
        // An image of our own is computed into memory in place; this one may be another thread's too.
        let reduced = source === self ? try pixels(as: UInt8.self).withUnsafeBufferPointer { samples throws(VipsError) in try reduce(samples) }
            : try source.withUnsafeSamples(reduce)
        return try Self.make("copy") { cvips_copy_interpretation(reduced.pointer, $0, interpretation) }
    }

    /// Resizes to exactly `width × height` pixels; `boxShrinkFirst` as for ``resized(horizontally:vertically:boxShrinkFirst:)``.
    public func resized(toWidth width: Int, height: Int, boxShrinkFirst: Bool = true) throws(VipsError) -> VipsImage {
        if width == self.width && height == self.height { return self }
        return try resized(horizontally: Double(width) / Double(self.width),
                           vertically: Double(height) / Double(self.height), boxShrinkFirst: boxShrinkFirst)
    }

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

