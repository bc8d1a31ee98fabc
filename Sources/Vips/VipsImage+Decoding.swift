import CVips
import CVipsShim
import Foundation

/// What an encoded image declares in its header, read without decoding pixels.
public struct VipsImageHeader: Sendable, Equatable {
    /// Size as the image is shown: EXIF orientations 5–8 swap the stored width and height.
    public var width: Int
    public var height: Int
}

/// Sees the bytes of a file that ``VipsImage/decode(file:observer:maxWidth:)`` reads: every byte,
/// in order, once. Called on libvips' threads, one call at a time, while the decode runs.
public protocol VipsReadObserver: AnyObject {
    func observe(_ bytes: UnsafeRawBufferPointer)
}

/// An image file decoded by ``VipsImage/decode(file:observer:maxWidth:)``.
public struct DecodedFile<Observer: VipsReadObserver> {
    public let header: VipsImageHeader
    /// nil when the header was refused.
    public let image: VipsImage?
    /// Has seen the whole file.
    public let observer: Observer
}

extension VipsImage {
    /// Reads only the header of an encoded image (JPEG, PNG, WebP, TIFF, GIF, HEIF, …).
    public static func header(of encoded: Data) throws(VipsError) -> VipsImageHeader {
        try VipsCall.step { () throws(VipsError) -> VipsImageHeader in
            try withSource(reading: encoded) { source throws(VipsError) in try header(of: source) }
        }
    }

    /// Decodes once with shrink-on-load and EXIF orientation applied, to at most `maxWidth` pixels
    /// wide (never upscaled), then normalises to 8-bit sRGB with 3 bands, plus alpha when the source has it.
    /// Embedded ICC profiles are honoured; CMYK, gray, 16-bit and palette sources all arrive as 8-bit sRGB.
    /// The result is in memory: derive any number of images from it.
    ///
    /// One step of ``VipsCall``: damage that shows only as the pixels are decoded runs the whole decode
    /// again, from the bytes, so that its error has the decoder's own messages.
    public static func decode(_ encoded: Data, maxWidth: Int) throws(VipsError) -> VipsImage {
        try decode(encoded, maxWidth: maxWidth, reducingHere: true)
    }

    /// ``decode(_:maxWidth:)`` with libvips resizing as its thumbnail does, when not `reducingHere`: what
    /// the reduction here must equal.
    static func decode(_ encoded: Data, maxWidth: Int, reducingHere: Bool) throws(VipsError) -> VipsImage {
        try VipsCall.step { () throws(VipsError) -> VipsImage in
            try withSource(reading: encoded) { source throws(VipsError) in
                try decode(source, maxWidth: maxWidth, reducingHere: reducingHere)
            }
        }
    }

    /// Decodes the image file open as `descriptor` as ``decode(_:maxWidth:)`` does, to the width
    /// `maxWidth` gives for its header, or not at all when that is nil; then reads the rest of the file.
    /// The file is read from its start (the descriptor's offset is left alone) a piece at a time,
    /// never held whole unless its format needs it (TIFF, HEIF), each byte once and in order: the
    /// observer sees exactly the bytes decoded, then the rest, so a digest of them vouches for the
    /// pixels. Each attempt of the ``VipsCall`` step reads the file again with a new observer.
    public static func decode<Observer: VipsReadObserver>(file descriptor: Int32, observer makeObserver: () -> Observer,
                                                          maxWidth: (VipsImageHeader) -> Int?)
        throws(VipsError) -> DecodedFile<Observer> {
        try VipsCall.step { () throws(VipsError) -> DecodedFile<Observer> in
            let observer = makeObserver()
            let box = ObserverBox(observer)
            return try withExtendedLifetime(box) { () throws(VipsError) -> DecodedFile<Observer> in
                let source = try Source(cvips_source_new_observed(descriptor, forwardRead,
                                                                  Unmanaged.passUnretained(box).toOpaque()))
                let header = try header(of: source)
                let image = try maxWidth(header).map { (width) throws(VipsError) in try decode(source, maxWidth: width) }
                guard cvips_source_observe_rest(source.pointer) == 0 else {
                    throw VipsError(operation: "read", message: String(cString: strerror(errno)))
                }
                return DecodedFile(header: header, image: image, observer: observer)
            }
        }
    }

    private static func header(of source: Source) throws(VipsError) -> VipsImageHeader {
        let image = try make("load") { cvips_open_header(source.pointer, $0) }
        let swapsAxes = (5...8).contains(image.intField("orientation") ?? 1)
        return VipsImageHeader(width: swapsAxes ? image.height : image.width,
                               height: swapsAxes ? image.width : image.height)
    }

    private static func decode(_ source: Source, maxWidth: Int, reducingHere: Bool = true) throws(VipsError) -> VipsImage {
        let reduced = reducingHere ? try thumbnailReducedHere(source, maxWidth: maxWidth) : nil
        let decoded = if let reduced { reduced } else {
            try make("thumbnail") { cvips_thumbnail(source.pointer, $0, Int32(maxWidth)) }
        }
        // 8-bit sRGB in three or four bands, colourspace would only wrap the image, which inMemory()
        // would then copy.
        let isSRGB = decoded.interpretation == VIPS_INTERPRETATION_sRGB && decoded.format == VIPS_FORMAT_UCHAR
            && decoded.bands >= 3
        let srgb = isSRGB ? decoded : try decoded.colourspace(VIPS_INTERPRETATION_sRGB)
        let eightBit = srgb.format == VIPS_FORMAT_UCHAR ? srgb : try srgb.cast(to: VIPS_FORMAT_UCHAR)
        // Keep colour and at most one alpha band (some TIFFs carry extra bands).
        let wanted = eightBit.hasAlpha ? 4 : 3
        let bands = eightBit.bands == wanted ? eightBit : try eightBit.extractBands(0, count: min(wanted, eightBit.bands))
        return try bands.inMemory()
    }

    /// What `cvips_thumbnail` gives for a JPEG in RGB, byte for byte, with its resize done by
    /// ``resized(horizontally:vertically:boxShrinkFirst:)``, whose horizontal reduction is vectorised
    /// where libvips 8.14's is not; nil for any other source.
    private static func thumbnailReducedHere(_ source: Source, maxWidth: Int) throws(VipsError) -> VipsImage? {
        var (hshrink, vshrink) = (1.0, 1.0)
        let opened = try VipsCall.step { () throws(VipsError) -> VipsImage? in
            var out: UnsafeMutablePointer<CVips.VipsImage>?
            let status = Vips.pipelineLock.withLock { _ in
                cvips_thumbnail_open(source.pointer, Int32(maxWidth), &out, &hshrink, &vshrink)
            }
            guard status != 1 else { return nil }
            guard status == 0, let out else { throw VipsCall.failure(of: "thumbnail") }
            return VipsImage(taking: out)
        }
        guard let opened else { return nil }
        let resized = try opened.resized(horizontally: 1 / hshrink, vertically: 1 / vshrink)
        return try make("thumbnail") { cvips_thumbnail_close(resized.pointer, opened.pointer, $0) }
    }

    /// Runs `body` with a source over `encoded`, which libvips reads in place: everything that reads
    /// it must be computed within `body`.
    private static func withSource<Result>(reading encoded: Data,
                                           _ body: (Source) throws(VipsError) -> Result) throws(VipsError) -> Result {
        try encoded.withUnsafeBytes { bytes in
            Swift.Result { () throws(VipsError) -> Result in
                try body(try Source(vips_source_new_from_memory(bytes.baseAddress, bytes.count)))
            }
        }.get()
    }

    private func intField(_ name: String) -> Int? {
        guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, name, &value) == 0 else {
            // A missing field is no failure: its message is not the step's.
            vips_error_clear()
            return nil
        }
        return Int(value)
    }
}

/// One reference to a libvips source, released when this goes.
private final class Source {
    let pointer: UnsafeMutablePointer<VipsSource>

    /// Takes the reference a libvips call returned; throws that call's error when it returned none.
    init(_ pointer: UnsafeMutablePointer<VipsSource>?) throws(VipsError) {
        guard let pointer else { throw VipsCall.failure(of: "source") }
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }
}

/// An observer behind the opaque pointer an observed source passes back.
private final class ObserverBox {
    let observer: any VipsReadObserver

    init(_ observer: any VipsReadObserver) {
        self.observer = observer
    }
}

private let forwardRead: cvips_read_observer = { context, bytes, length in
    Unmanaged<ObserverBox>.fromOpaque(context!).takeUnretainedValue().observer
        .observe(UnsafeRawBufferPointer(start: bytes, count: length))
}
