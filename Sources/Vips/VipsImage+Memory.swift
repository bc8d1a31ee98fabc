import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// An image over a copy of `pixels`: `width × height` pixels of `bands` interleaved samples.
    public static func fromPixels<Sample: VipsSample>(_ pixels: [Sample], width: Int, height: Int, bands: Int) throws(VipsError) -> VipsImage {
        precondition(pixels.count == width * height * bands, "pixel count does not match the size")
        return try fromPixels(width: width, height: height, bands: bands) { memory in
            _ = memory.initialize(from: pixels)
        }
    }

    /// An image of `width × height` pixels of `bands` interleaved samples that `fill` writes straight
    /// into the memory the image keeps: no copy, unlike ``fromPixels(_:width:height:bands:)``.
    public static func fromPixels<Sample: VipsSample>(width: Int, height: Int, bands: Int,
                                                      filledBy fill: (UnsafeMutableBufferPointer<Sample>) -> Void) throws(VipsError) -> VipsImage {
        let count = width * height * bands
        let size = count * MemoryLayout<Sample>.stride
        guard let memory = g_malloc(gsize(size)) else { throw VipsCall.failure(of: "new_from_memory") }
        fill(UnsafeMutableBufferPointer(start: memory.bindMemory(to: Sample.self, capacity: count), count: count))
        return try make("new_from_memory") { out in
            cvips_image_new_from_owned_memory(memory, size, Int32(width), Int32(height), Int32(bands), Sample.bandFormat, out)
        }
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
