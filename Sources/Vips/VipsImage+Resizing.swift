import CVips
import CVipsShim

/// Resizing as libvips' `vips_resize` does it, its lanczos3 reductions of 8-bit images done here.
extension VipsImage {
    /// Resizes by separate horizontal and vertical factors (lanczos3; anti-aliased when shrinking).
    /// A reduction by 4 or more starts with a box shrink unless `boxShrinkFirst` is false: cheaper
    /// on large images, but libvips 8.14's is slow on small ones (bench/README.md, "The placeholder's
    /// data URL").
    ///
    /// An 8-bit reduction takes libvips' steps (`reducev`, then `reduceh`), done by
    /// ``VerticalReduction`` and ``HorizontalReduction``, whose pixels are libvips' own.
    public func resized(horizontally hscale: Double, vertically vscale: Double,
                        boxShrinkFirst: Bool = true) throws(VipsError) -> VipsImage {
        let gap = boxShrinkFirst ? 2.0 : 0
        // vips_resize keeps at least one pixel a side.
        let (hscale, vscale) = (max(hscale, 1 / Double(width)), max(vscale, 1 / Double(height)))
        guard format == UInt8.bandFormat, bands <= 4, hscale < 1, vscale <= 1, width * height <= Self.largestResizedHere else {
            return try resizedByLibvips(horizontally: hscale, vertically: vscale, gap: gap)
        }
        let reduced = vscale < 1 ? try self.reduced(.vertical, by: 1 / vscale, gap: gap) : self
        return try reduced.reduced(.horizontal, by: 1 / hscale, gap: gap)
    }

    /// Resizes to exactly `width × height` pixels; `boxShrinkFirst` as for ``resized(horizontally:vertically:boxShrinkFirst:)``.
    public func resized(toWidth width: Int, height: Int, boxShrinkFirst: Bool = true) throws(VipsError) -> VipsImage {
        if width == self.width && height == self.height { return self }
        return try resized(horizontally: Double(width) / Double(self.width),
                           vertically: Double(height) / Double(self.height), boxShrinkFirst: boxShrinkFirst)
    }

    /// libvips' `vips_resize` with its `gap`, every step its own.
    func resizedByLibvips(horizontally hscale: Double, vertically vscale: Double, gap: Double) throws(VipsError) -> VipsImage {
        try Self.make("resize") { cvips_resize(pointer, $0, hscale, vscale, gap) }
    }

    /// Images of up to this many pixels are reduced here (the horizontal step holds what it reduces
    /// whole); a larger one (a very tall photo: sources of up to 100 MP are allowed) is resized by
    /// libvips, which streams it, to the same pixels.
    static let largestResizedHere = 1 << 23
    /// Images of up to this many pixels are reduced vertically here, held whole; a larger one (a photo
    /// as it decodes) streams through libvips' `reducev`.
    static let largestReducedVerticallyHere = 1 << 21

    private enum Axis { case horizontal, vertical }

    /// libvips 8.14's `reduceh` or `reducev` (lanczos3) of this 8-bit image by `shrink`: a box shrink
    /// by the whole part of `shrink / gap` (none for a gap of 0), then ``HorizontalReduction`` or
    /// ``VerticalReduction``. A vertical one that libvips would compute on its C path (no orc, a mask
    /// past 50 taps), or of a large image, is libvips' own.
    private func reduced(_ axis: Axis, by shrink: Double, gap: Double) throws(VipsError) -> VipsImage {
        let inputCount = axis == .horizontal ? width : height
        let outputCount = Int(Double(inputCount) / shrink + 0.5)
        let boxFactor = gap > 0 ? max(1, Int((Double(inputCount) / Double(outputCount) / gap).rounded(.down))) : 1
        let residual = shrink / Double(boxFactor)
        let extraPixels = (Double(outputCount) * shrink - Double(inputCount)) / Double(boxFactor)
        if axis == .vertical, residual != 1, vips_vector_isenabled() == 0
            || ReductionAxis.points(shrinking: residual) > VerticalReduction.maxVectorPoints
            || width * height > Self.largestReducedVerticallyHere {
            return try Self.make("reducev") { cvips_reducev(pointer, $0, shrink, gap) }
        }
        let source = boxFactor == 1 ? self : try Self.make("shrink") { out in
            axis == .horizontal ? cvips_shrinkh(pointer, out, Int32(boxFactor)) : cvips_shrinkv(pointer, out, Int32(boxFactor))
        }
        if residual == 1 { return source }
        let (sourceWidth, sourceHeight, bands) = (source.width, source.height, source.bands)
        let (outputWidth, outputHeight): (Int, Int)
        let reduce: (UnsafeBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>) -> Void
        switch axis {
        case .horizontal:
            let reduction = HorizontalReduction(shrink: residual, outputWidth: outputCount, extraPixels: extraPixels)
            (outputWidth, outputHeight) = (outputCount, sourceHeight)
            reduce = { reduction.reduce($0, inputWidth: sourceWidth, height: sourceHeight, bands: bands, into: $1) }
        case .vertical:
            let reduction = VerticalReduction(shrink: residual, outputHeight: outputCount, extraPixels: extraPixels)
            (outputWidth, outputHeight) = (sourceWidth, outputCount)
            reduce = { reduction.reduce($0, rowLength: sourceWidth * bands, inputRows: sourceHeight, into: $1) }
        }
        func image(reducing samples: UnsafeBufferPointer<UInt8>) throws(VipsError) -> VipsImage {
            try Self.fromPixels(width: outputWidth, height: outputHeight, bands: bands, interpretation: interpretation) {
                reduce(samples, $0)
            }
        }
        // An image of our own, or one in memory, is read in place; this one, computed, may be another
        // thread's too.
        return source === self && !isInMemory
            ? try pixels(as: UInt8.self).withUnsafeBufferPointer { samples throws(VipsError) in try image(reducing: samples) }
            : try source.withUnsafeSamples(image(reducing:))
    }
}
