import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// An image over a copy of `pixels`: `width × height` pixels of `bands` interleaved samples, labelled
    /// `interpretation` (nil: as libvips guesses from the bands and format).
    public static func fromPixels<Sample: VipsSample>(_ pixels: [Sample], width: Int, height: Int, bands: Int,
                                                      interpretation: VipsInterpretation? = nil) throws(VipsError) -> VipsImage {
        precondition(pixels.count == width * height * bands, "pixel count does not match the size")
        return try fromPixels(width: width, height: height, bands: bands, interpretation: interpretation) { memory in
            _ = memory.initialize(from: pixels)
        }
    }

    /// An image of `width × height` pixels of `bands` interleaved samples that `fill` writes straight
    /// into the memory the image keeps: no copy, unlike ``fromPixels(_:width:height:bands:interpretation:)``.
    public static func fromPixels<Sample: VipsSample>(width: Int, height: Int, bands: Int,
                                                      interpretation: VipsInterpretation? = nil,
                                                      filledBy fill: (UnsafeMutableBufferPointer<Sample>) -> Void) throws(VipsError) -> VipsImage {
        let count = width * height * bands
        let size = count * MemoryLayout<Sample>.stride
        guard let memory = g_malloc(gsize(size)) else { throw VipsCall.failure(of: "new_from_memory") }
        fill(UnsafeMutableBufferPointer(start: memory.bindMemory(to: Sample.self, capacity: count), count: count))
        return try make("new_from_memory") { out in
            cvips_image_new_from_owned_memory(memory, size, Int32(width), Int32(height), Int32(bands), Sample.bandFormat,
                                              interpretation.map { Int32($0.rawValue) } ?? -1, out)
        }
    }

    /// An 8-bit sRGB image of `width × height` pixels of `bands` samples that holds no pixels: `fill` paints
    /// the rows asked for whenever libvips computes them (an encoder asks a strip at a time), so encoding it
    /// never holds the whole bitmap. Each read of the image paints again. `fill` may run on several threads
    /// at once, for different rows; it is given the rows, the columns, and their memory with rows
    /// `rowBytes` apart.
    public static func generated(width: Int, height: Int, bands: Int,
                                 fill: @escaping @Sendable (_ rows: Range<Int>, _ columns: Range<Int>,
                                                            _ memory: UnsafeMutableRawPointer, _ rowBytes: Int) -> Void)
        throws(VipsError) -> VipsImage {
        let context = Unmanaged.passRetained(RowFiller(fill)).toOpaque()
        return try make("generate") { out in
            cvips_image_new_generated(Int32(width), Int32(height), Int32(bands), { context, left, top, width, height, memory, rowBytes in
                guard let context, let memory else { return }
                Unmanaged<RowFiller>.fromOpaque(context).takeUnretainedValue()
                    .fill(Int(top)..<Int(top + height), Int(left)..<Int(left + width), memory, rowBytes)
            }, context, { context in
                guard let context else { return }
                Unmanaged<RowFiller>.fromOpaque(context).release()
            }, out)
        }
    }

    /// The image computed into memory, so that reading it again reads memory rather than computing
    /// it again (decoders are sequential; a ``generated(width:height:bands:fill:)`` image paints again).
    public func inMemory() throws(VipsError) -> VipsImage {
        try Self.make("copy_memory", computes: true) { cvips_copy_memory(pointer, $0) }
    }

    /// Whether the image's samples are in memory: ``withUnsafeSamples(_:)`` then computes nothing, and
    /// other threads may read the image meanwhile.
    public var isInMemory: Bool { cvips_image_in_memory(pointer) != 0 }

    /// Calls `body` with the image's 8-bit samples, interleaved, row by row, where libvips keeps them: no
    /// copy. An image not in memory (a decoder, a pipeline) is computed into memory in place first, so
    /// that the image then reads from memory; do not share it with another thread meanwhile.
    public func withUnsafeSamples<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws(VipsError) -> Result) throws(VipsError) -> Result {
        precondition(format == UInt8.bandFormat, "withUnsafeSamples reads 8-bit images")
        let data = try VipsCall.step { () throws(VipsError) -> UnsafeRawPointer in
            guard let data = cvips_image_data(pointer) else { throw VipsCall.failure(of: "image_get_data") }
            return data
        }
        let count = width * height * bands
        defer { withExtendedLifetime(self) {} }
        return try body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// Computes the image and returns its samples, interleaved, row by row, converted to `Sample`.
    public func pixels<Sample: VipsSample>(as _: Sample.Type = Sample.self) throws(VipsError) -> [Sample] {
        let converted = format == Sample.bandFormat ? self : try cast(to: Sample.bandFormat)
        let count = converted.width * converted.height * converted.bands
        var failure: VipsError?
        // Computed straight into the array's storage: no second copy of the samples.
        let samples = [Sample](unsafeUninitializedCapacity: count) { memory, initialized in
            do throws(VipsError) {
                try VipsCall.step { () throws(VipsError) in
                    guard cvips_write_to_memory(converted.pointer, memory.baseAddress, count * MemoryLayout<Sample>.stride) == 0 else {
                        throw VipsCall.failure(of: "write_to_memory")
                    }
                }
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return samples
    }
}

/// A pixel sample type libvips can hold.
public protocol VipsSample: BitwiseCopyable {
    static var bandFormat: VipsBandFormat { get }
}

extension UInt8: VipsSample {
    public static var bandFormat: VipsBandFormat { VIPS_FORMAT_UCHAR }
}

extension Float: VipsSample {
    public static var bandFormat: VipsBandFormat { VIPS_FORMAT_FLOAT }
}

/// The closure behind a ``VipsImage/generated(width:height:bands:fill:)`` image, kept alive by the image.
private final class RowFiller: Sendable {
    let fill: @Sendable (Range<Int>, Range<Int>, UnsafeMutableRawPointer, Int) -> Void

    init(_ fill: @escaping @Sendable (Range<Int>, Range<Int>, UnsafeMutableRawPointer, Int) -> Void) {
        self.fill = fill
    }
}
