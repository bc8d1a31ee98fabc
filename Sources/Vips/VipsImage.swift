import CVips
import CVipsShim
import Foundation

/// An immutable libvips image. Pixels are computed lazily when the image is encoded or copied out.
///
/// Owns one reference to the underlying `VipsImage` and releases it on deinit. libvips images
/// never change after creation, so one may be shared across threads.
public final class VipsImage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>

    init(taking pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        Vips.pipelineLock.withLock { _ in g_object_unref(pointer) }
    }

    public var width: Int { Int(vips_image_get_width(pointer)) }
    public var height: Int { Int(vips_image_get_height(pointer)) }
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    public var format: VipsBandFormat { vips_image_get_format(pointer) }
    public var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }

    /// Runs a libvips call that writes one output image, throwing with its own libvips message on failure
    /// (through ``VipsCall``). The call builds a lazy pipeline under ``Vips/pipelineLock``, unless it
    /// `computes` the pixels (which must then build nothing that compiles code, as copying to memory does not).
    static func make(_ operation: String, computes: Bool = false,
                     _ call: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32) throws(VipsError) -> VipsImage {
        try VipsCall.step { () throws(VipsError) -> VipsImage in
            var out: UnsafeMutablePointer<CVips.VipsImage>?
            let status = computes ? call(&out) : Vips.pipelineLock.withLock { _ in call(&out) }
            guard status == 0, let out else {
                if let out { Vips.pipelineLock.withLock { _ in g_object_unref(out) } }
                throw VipsCall.failure(of: operation)
            }
            return VipsImage(taking: out)
        }
    }
}
