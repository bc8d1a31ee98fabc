import CVipsShim
import Foundation

/// One of libvips' image loaders, as its own sniffer of the first bytes judges a file.
public struct VipsLoader: Sendable, Equatable {
    /// libvips' nickname for the loader, e.g. `svgload_buffer`.
    public var name: String
    /// libvips' one-line description, e.g. `load SVG with rsvg`.
    public var summary: String
    /// A blocked loader refuses to run. ``Vips/start()`` blocks exactly the loaders libvips marks
    /// untrusted: those not fuzzed against hostile input.
    public var isBlocked: Bool

    /// The loader libvips would use for `encoded`: one that is not blocked if any recognises the bytes,
    /// otherwise the blocked one of highest priority; nil when no loader recognises them.
    ///
    /// Call it after an image failed to open, to tell an unknown format from a blocked one from a
    /// damaged file of a known format. Needs ``Vips/start()``; safe from any thread.
    public static func recognising(_ encoded: Data) -> VipsLoader? {
        guard !encoded.isEmpty else { return nil }
        return encoded.withUnsafeBytes { bytes in
            var description: UnsafePointer<CChar>?
            var blocked: Int32 = 0
            guard let name = cvips_find_loader(bytes.baseAddress, bytes.count, &description, &blocked) else {
                return nil
            }
            return VipsLoader(name: String(cString: name), summary: description.map { String(cString: $0) } ?? "",
                              isBlocked: blocked != 0)
        }
    }
}
