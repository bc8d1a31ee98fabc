import Foundation
@testable import CardBakeRender
import Testing
import Vips

@Suite("Fidelity floor of the default JPEG", .vips)
struct FidelityFloorTests {
    /// Smooth gradients with a sharp edge: what a blurred background and a photo look like to JPEG.
    static func smooth(width: Int = 240, height: Int = 320) throws -> VipsImage {
        try VipsImage.fromPixels(width: width, height: height, bands: 3) { (memory: UnsafeMutableBufferPointer<UInt8>) in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 3
                    memory[index] = UInt8(x * 255 / width)
                    memory[index + 1] = UInt8(y * 255 / height)
                    memory[index + 2] = x < width / 2 ? 40 : 200
                }
            }
        }
    }

    /// Uniform noise from a fixed seed: the picture JPEG at quality 90 keeps worst.
    static func noise(width: Int = 240, height: Int = 320) throws -> VipsImage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return try VipsImage.fromPixels(width: width, height: height, bands: 3) { (memory: UnsafeMutableBufferPointer<UInt8>) in
            for index in memory.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                memory[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
    }

    static func psnr(of jpeg: Data, against image: VipsImage, textTop: Int) throws -> (card: Double, text: Double) {
        let reference = try image.pixels(as: UInt8.self)
        let decoded = try VipsImage.decode(jpeg, maxWidth: image.width).pixels(as: UInt8.self)
        let errors = SquaredErrors(decoded, reference, splitAt: textTop * image.width * 3)
        return (errors.psnr(of: .whole), errors.psnr(of: .tail))
    }

    @Test("A picture the first quality keeps is encoded at it, and is within the floor")
    func firstQualitySuffices() throws {
        let image = try Self.smooth()
        let floor = FidelityFloor.standard
        let picked = try floor.jpeg(of: image, textTop: 200)
        #expect(picked == (try image.encoded(as: .jpeg(quality: floor.qualities[0]))))
        let measured = try Self.psnr(of: picked, against: image, textTop: 200)
        #expect(measured.card >= floor.cardDecibels && measured.text >= floor.textDecibels)
    }

    @Test("Noise, below the floor at the first quality, is encoded higher, and then is within it")
    func noiseGoesHigher() throws {
        let image = try Self.noise()
        let floor = FidelityFloor.standard
        let first = try image.encoded(as: .jpeg(quality: floor.qualities[0]))
        #expect(try Self.psnr(of: first, against: image, textTop: 200).card < floor.cardDecibels)
        let picked = try floor.jpeg(of: image, textTop: 200)
        #expect(picked.count > first.count)
        let measured = try Self.psnr(of: picked, against: image, textTop: 200)
        #expect(measured.card >= floor.cardDecibels && measured.text >= floor.textDecibels)
    }

    @Test("Only the text's rows count for the text's floor")
    func textRowsAlone() throws {
        // Noise above row 200, smooth below, and a floor on the text alone: it holds at the first
        // quality when the text's rows are the smooth ones, and not when they take in the noise.
        let noise = try Self.noise(), smooth = try Self.smooth()
        let top = try noise.pixels(as: UInt8.self).prefix(200 * 240 * 3)
        let bottom = try smooth.pixels(as: UInt8.self).dropFirst(200 * 240 * 3)
        let image = try VipsImage.fromPixels(Array(top + bottom), width: 240, height: 320, bands: 3)
        let floor = FidelityFloor(cardDecibels: 0, textDecibels: 36, qualities: [90, 100])
        #expect(try floor.jpeg(of: image, textTop: 200) == (try image.encoded(as: .jpeg(quality: 90))))
        #expect(try floor.jpeg(of: image, textTop: 0) == (try image.encoded(as: .jpeg(quality: 100))))
    }

    @Test("PSNR over the whole and over the rows from the split")
    func squaredErrors() {
        let reference: [UInt8] = [10, 10, 10, 10]
        let errors = SquaredErrors([10, 10, 12, 10], reference, splitAt: 2)
        #expect(abs(errors.psnr(of: .whole) - 10 * log10(255.0 * 255 * 4 / 4)) < 1e-9)
        #expect(abs(errors.psnr(of: .tail) - 10 * log10(255.0 * 255 * 2 / 4)) < 1e-9)
        #expect(SquaredErrors(reference, reference, splitAt: 0).psnr(of: .whole) == .infinity)
    }
}
