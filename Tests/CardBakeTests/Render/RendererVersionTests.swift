import CardBakeRender
import Testing
import Vips

@Suite("Renderer version")
struct RendererVersionTests {
    static let libraries = LibraryVersions(libvips: "8.14.1", libjpegTurbo: "2.1.5", libdeflate: "1.14")

    @Test("The digest changes when the salt or the version of libvips, libjpeg-turbo or libdeflate changes")
    func digestNamesEachInput() {
        let digest = RendererVersion.digest(salt: "salt", libraries: Self.libraries)
        #expect(RendererVersion.digest(salt: "salt", libraries: Self.libraries) == digest)

        var libvips = Self.libraries, libjpegTurbo = Self.libraries, libdeflate = Self.libraries
        libvips.libvips = "8.15.0"
        libjpegTurbo.libjpegTurbo = "3.0.0"
        libdeflate.libdeflate = "1.19"
        // Two versions swapped between fields: each is a field of its own, not part of one text.
        let swapped = LibraryVersions(libvips: "8.14.1", libjpegTurbo: "1.14", libdeflate: "2.1.5")
        let changed = [RendererVersion.digest(salt: "other salt", libraries: Self.libraries)]
            + [libvips, libjpegTurbo, libdeflate, swapped].map { RendererVersion.digest(salt: "salt", libraries: $0) }
        #expect(Set(changed + [digest]).count == changed.count + 1, "\(changed)")
    }

    @Test("This process's digest is that of its salt and the versions of the libraries it runs with")
    func linked() {
        let linked = LibraryVersions.linked
        #expect(RendererVersion.digest == RendererVersion.digest(salt: RendererVersion.salt, libraries: linked))
        #expect(linked.libvips == Vips.version)
        #expect(linked.libjpegTurbo.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(linked)")
        #expect(linked.libdeflate.wholeMatch(of: /\d+\.\d+(\.\d+)?/) != nil, "\(linked)")
    }
}
