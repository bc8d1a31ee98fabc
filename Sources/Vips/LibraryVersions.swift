import CLibdeflate
import CVipsShim

/// The versions of the libraries that make a card's pixels and write its bytes: libvips, and the two
/// encoders cardbake calls itself, libjpeg-turbo (``JPEGSamples``) and libdeflate (PNG's compression).
/// libvips' is the loaded library's; the encoders' are those of the headers cardbake is compiled against,
/// as neither library reports its version at run time.
public struct LibraryVersions: Sendable, Equatable, CustomStringConvertible {
    public var libvips: String
    public var libjpegTurbo: String
    public var libdeflate: String

    public init(libvips: String, libjpegTurbo: String, libdeflate: String) {
        self.libvips = libvips
        self.libjpegTurbo = libjpegTurbo
        self.libdeflate = libdeflate
    }

    /// This process's.
    public static var linked: LibraryVersions {
        LibraryVersions(libvips: Vips.version, libjpegTurbo: String(cString: cvips_libjpeg_turbo_version()),
                        libdeflate: LIBDEFLATE_VERSION_STRING)
    }

    /// `libvips 8.14.1, libjpeg-turbo 2.1.5, libdeflate 1.14`.
    public var description: String {
        "libvips \(libvips), libjpeg-turbo \(libjpegTurbo), libdeflate \(libdeflate)"
    }
}
