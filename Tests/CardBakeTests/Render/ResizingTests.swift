import Foundation
import Testing
@testable import Vips

@Suite("Resizing 8-bit images: libvips' reductions done here", .vips)
struct ResizingTests {
    /// `width × height` pixels of `bands` samples with detail at every scale and runs of 0 and 255,
    /// whose lanczos lobes overshoot and are clipped.
    static func pattern(width: Int, height: Int, bands: Int) throws -> VipsImage {
        var state: UInt32 = 12_345
        let samples = (0..<width * height * bands).map { index -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            let x = index / bands % width
            switch x / 7 % 4 {
            case 0: return 0
            case 1: return 255
            default: return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        return try VipsImage.fromPixels(samples, width: width, height: height, bands: bands)
    }

    /// Expects the same samples as libvips 8.14's, whose reductions ours are, saying how many differ
    /// rather than listing them. Another libvips (8.15 on has vector paths of its own, with other
    /// weights) is expected within a level on average.
    static func expectSame(_ ours: [UInt8], _ libvips: [UInt8], _ what: String) {
        #expect(ours.count == libvips.count, "\(what): \(ours.count) samples against \(libvips.count)")
        if Vips.version.hasPrefix("8.14.") {
            let differing = zip(ours, libvips).count { $0 != $1 }
            #expect(differing == 0, "\(what): \(differing) of \(libvips.count) samples differ")
        } else {
            let mean = Double(zip(ours, libvips).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, ours.count))
            #expect(mean <= 1, "\(what): samples differ by \(mean) levels on average")
        }
    }

    @Test("Byte for byte what vips_resize gives, with and without the box shrink first",
          arguments: [(1008, 60, 960, 57), (1008, 40, 640, 25), (2016, 30, 960, 14), (960, 20, 320, 7),
                      (448, 50, 43, 5), (320, 54, 59, 10), (59, 100, 16, 27), (200, 9, 199, 9), (37, 5, 1, 1),
                      (960, 720, 640, 480), (960, 720, 320, 240), (120, 900, 100, 431), (90, 1000, 90, 93),
                      // Tall images reduced by barely more than 1: 7 taps, positions over 12 strips of 16 rows.
                      (40, 193, 40, 192), (30, 205, 30, 192), (24, 209, 24, 192)])
    func sameAsLibvips(size: (width: Int, height: Int, toWidth: Int, toHeight: Int)) throws {
        for bands in [1, 3, 4] {
            let image = try Self.pattern(width: size.width, height: size.height, bands: bands)
            for boxShrinkFirst in [true, false] {
                let hscale = Double(size.toWidth) / Double(size.width), vscale = Double(size.toHeight) / Double(size.height)
                let ours: [UInt8] = try image.resized(horizontally: hscale, vertically: vscale,
                                                      boxShrinkFirst: boxShrinkFirst).pixels()
                let libvips: [UInt8] = try image.resizedByLibvips(horizontally: hscale, vertically: vscale,
                                                                  gap: boxShrinkFirst ? 2 : 0).pixels()
                #expect(ours.count == size.toWidth * size.toHeight * bands)
                Self.expectSame(ours, libvips, "\(size), \(bands) bands, box shrink first: \(boxShrinkFirst)")
            }
        }
    }

    @Test("Without a box shrink first, a reduction by 4 or more is lanczos alone; a smaller one is the same either way")
    func resizeWithoutBoxShrink() throws {
        // A pattern with detail at every scale, which the two filters treat differently.
        let samples: [UInt8] = (0..<(200 * 120 * 3)).map { index -> UInt8 in UInt8(truncatingIfNeeded: index &* 37 &+ index / 600 &* 11) }
        let image = try VipsImage.fromPixels(samples, width: 200, height: 120, bands: 3)
        for (width, height, differs) in [(40, 24, true), (100, 60, false)] {
            let boxFirst: [UInt8] = try image.resized(toWidth: width, height: height).pixels()
            let lanczos: [UInt8] = try image.resized(toWidth: width, height: height, boxShrinkFirst: false).pixels()
            #expect(boxFirst.count == width * height * 3 && lanczos.count == boxFirst.count)
            #expect((boxFirst != lanczos) == differs, "\(width) x \(height)")
        }
    }

    @Test("The result keeps the source's interpretation")
    func interpretation() throws {
        let unlabelled = try Self.pattern(width: 300, height: 20, bands: 1)
        let image = try unlabelled.labelledSRGB()
        #expect(image.interpretation != unlabelled.interpretation)
        #expect(try image.resized(toWidth: 100, height: 20).interpretation == image.interpretation)
    }

    @Test("A JPEG decoded smaller is what libvips' thumbnail gives, byte for byte: shrunk on load, oriented, through its profile",
          arguments: ["orientation-1.jpg", "orientation-3.jpg", "orientation-5.jpg", "orientation-6.jpg",
                      "orientation-8.jpg", "display-p3-rotated.jpg", "gray-rgb-profile.jpg", "cmyk-profile.jpg"])
    func fixtureDecodes(name: String) throws {
        let data = try Data(contentsOf: SourceDecodingTests.fixtures.appendingPathComponent(name))
        for maxWidth in [7, 20, 33, 47] {
            let ours: [UInt8] = try VipsImage.decode(data, maxWidth: maxWidth).pixels()
            let libvips: [UInt8] = try VipsImage.decode(data, maxWidth: maxWidth, reducingHere: false).pixels()
            Self.expectSame(ours, libvips, "\(name) at \(maxWidth) wide")
        }
    }

    @Test("A detailed photo decoded at a card's width is what libvips' thumbnail gives, byte for byte; a very tall one too",
          arguments: [(1200, 900, 1000), (1200, 900, 280), (1200, 900, 130), (1200, 9000, 1100)])
    func photoDecodes(photo: (width: Int, height: Int, maxWidth: Int)) throws {
        let jpeg = try Self.pattern(width: photo.width, height: photo.height, bands: 3).encoded(as: .jpeg(quality: 95))
        let ours = try VipsImage.decode(jpeg, maxWidth: photo.maxWidth)
        let libvips = try VipsImage.decode(jpeg, maxWidth: photo.maxWidth, reducingHere: false)
        #expect(ours.width == photo.maxWidth && ours.width == libvips.width && ours.height == libvips.height)
        Self.expectSame(try ours.pixels(), try libvips.pixels(), "\(photo)")
    }
}
