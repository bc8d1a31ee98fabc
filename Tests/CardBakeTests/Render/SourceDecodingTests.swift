import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

/// Every source arrives upright as 8-bit sRGB, whatever its orientation tag, colour space or depth.
/// Most fixtures (see Fixtures/make_fixtures.py) show one 64 × 48 picture: red top-left,
/// blue top-right, green bottom half.
@Suite("Source decoding", .vips)
struct SourceDecodingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func decode(_ name: String) throws -> (header: VipsImageHeader, image: VipsImage) {
        let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
        return (try VipsImage.header(of: data), try VipsImage.decode(data, maxWidth: 1000))
    }

    /// Expects the picture's three regions in `bitmap`, each colour within `tolerance` per band.
    static func expectPicture(_ bitmap: Bitmap, tolerance: Double, _ name: String) {
        let regions: [(x: Int, y: Int, colour: [Double])] = [(16, 12, [220, 30, 30]), (48, 12, [30, 30, 220]), (32, 36, [30, 200, 30])]
        for region in regions {
            let mean = bitmap.mean(x: region.x - 4, y: region.y - 4, width: 8, height: 8)
            for band in 0..<3 {
                #expect(abs(mean[band] - region.colour[band]) <= tolerance,
                        "\(name): at (\(region.x), \(region.y)) band \(band) is \(mean[band]), expected about \(region.colour[band])")
            }
        }
    }

    @Test("EXIF orientations 1–8 all decode upright, and the header reports the upright size", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let (header, image) = try Self.decode("orientation-\(orientation).jpg")
        #expect(header.width == 64 && header.height == 48)
        #expect(image.width == 64 && image.height == 48 && image.bands == 3)
        Self.expectPicture(try Bitmap(image), tolerance: 12, "orientation \(orientation)")
    }

    @Test("16-bit RGB arrives as 8-bit with the same colours")
    func sixteenBit() throws {
        let (_, image) = try Self.decode("rgb16.png")
        #expect(image.format == UInt8.bandFormat && image.bands == 3)
        Self.expectPicture(try Bitmap(image), tolerance: 0.5, "rgb16")
    }

    @Test("A palette PNG arrives as RGB")
    func palette() throws {
        let (_, image) = try Self.decode("palette.png")
        #expect(image.format == UInt8.bandFormat && image.bands == 3)
        Self.expectPicture(try Bitmap(image), tolerance: 2, "palette")
    }

    @Test("Grayscale arrives as three equal bands; gray with alpha keeps its alpha")
    func gray() throws {
        let plain = try Bitmap(try Self.decode("gray.png").image)
        #expect(plain.bands == 3)
        let p = plain.pixel(16, 12)
        #expect(p[0] == p[1] && p[1] == p[2])
        let withAlpha = try Bitmap(try Self.decode("gray-alpha.png").image)
        #expect(withAlpha.bands == 4)
        #expect(withAlpha.pixel(16, 12)[3] == 255 && withAlpha.pixel(16, 40)[3] == 0)
    }

    /// The fixture's CMYK values come from a naive conversion, not a colour profile, and libvips
    /// reads profile-less CMYK through its fallback profile: hues survive, exact values do not.
    @Test("CMYK arrives as sRGB with recognisable colours")
    func cmyk() throws {
        let (_, image) = try Self.decode("cmyk.jpg")
        #expect(image.format == UInt8.bandFormat && image.bands == 3)
        let bitmap = try Bitmap(image)
        let red = bitmap.mean(x: 12, y: 8, width: 8, height: 8)
        let blue = bitmap.mean(x: 44, y: 8, width: 8, height: 8)
        let green = bitmap.mean(x: 28, y: 32, width: 8, height: 8)
        #expect(red[0] > max(red[1], red[2]) + 40, "red region is \(red)")
        #expect(blue[2] > max(blue[0], blue[1]) + 40, "blue region is \(blue)")
        #expect(green[1] > max(green[0], green[2]) + 40, "green region is \(green)")
    }

    @Test("WebP and TIFF arrive as the picture", arguments: ["picture.webp", "picture.tiff"])
    func otherFormats(_ name: String) throws {
        let (header, image) = try Self.decode(name)
        #expect(header.width == 64 && header.height == 48)
        #expect(image.format == UInt8.bandFormat && image.bands == 3)
        Self.expectPicture(try Bitmap(image), tolerance: 1, name)
    }

    @Test("An animated GIF arrives as its first frame (the picture; the second frame is all blue)")
    func animatedGIF() throws {
        let (header, image) = try Self.decode("animated.gif")
        #expect(header.width == 64 && header.height == 48, "one frame high, not a strip of frames")
        #expect(image.width == 64 && image.height == 48)
        Self.expectPicture(try Bitmap(image), tolerance: 1, "animated.gif")
    }

    /// The fixture's profile maps its inks exactly onto the picture; libvips' fallback CMYK profile,
    /// used when the embedded one is ignored, gives colours tens of levels away. It is also stored
    /// rotated (EXIF 6), so this checks the CMYK path keeps the picture upright.
    @Test("CMYK with an embedded profile is converted through that profile, upright")
    func cmykWithProfile() throws {
        let (header, image) = try Self.decode("cmyk-profile.jpg")
        #expect(header.width == 64 && header.height == 48)
        #expect(image.width == 64 && image.height == 48 && image.format == UInt8.bandFormat && image.bands == 3)
        Self.expectPicture(try Bitmap(image), tolerance: 4, "cmyk-profile.jpg")
    }

    /// Left half P3 (255, 0, 0), outside sRGB: clipped to sRGB red. Right half P3 (200, 120, 60):
    /// sRGB (213, 115, 42) by the P3 and sRGB primaries; read as sRGB it would stay (200, 120, 60).
    @Test("A Display P3 image is converted to sRGB, not reinterpreted")
    func displayP3() throws {
        let bitmap = try Bitmap(try Self.decode("display-p3.png").image)
        let red = bitmap.mean(x: 8, y: 16, width: 16, height: 16)
        #expect(red[0] >= 250 && red[1] <= 3 && red[2] <= 3, "P3 red is \(red)")
        let orange = bitmap.mean(x: 40, y: 16, width: 16, height: 16)
        for (band, expected) in [213.0, 115, 42].enumerated() {
            #expect(abs(orange[band] - expected) <= 2, "P3 (200, 120, 60) became \(orange), expected about (213, 115, 42)")
        }
    }

    @Test("A profile that cannot describe the image is ignored: a gray JPEG with an RGB profile decodes as gray")
    func unusableProfile() throws {
        let gray = try Bitmap(try Self.decode("gray.png").image)
        let bitmap = try Bitmap(try Self.decode("gray-rgb-profile.jpg").image)
        #expect(bitmap.bands == 3)
        for (x, y) in [(16, 12), (48, 12), (32, 36)] {
            let mean = bitmap.mean(x: x - 4, y: y - 4, width: 8, height: 8)
            let expected = Double(gray.pixel(x, y)[0])
            #expect(mean.allSatisfy { abs($0 - expected) <= 2 }, "at (\(x), \(y)) \(mean), expected gray \(expected)")
        }
    }

    @Test("A fully transparent PNG keeps alpha 0 everywhere")
    func transparent() throws {
        let bitmap = try Bitmap(try Self.decode("transparent.png").image)
        #expect(bitmap.bands == 4)
        #expect(stride(from: 3, to: bitmap.samples.count, by: 4).allSatisfy { bitmap.samples[$0] == 0 })
    }
}
