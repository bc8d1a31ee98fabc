import Foundation
@testable import CardBake
import Testing
import Vips

/// Every source arrives upright as 8-bit sRGB, whatever its orientation tag, colour space or depth.
/// The fixtures (see Fixtures/make_fixtures.py) all show one 64 × 48 picture: red top-left,
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
}
