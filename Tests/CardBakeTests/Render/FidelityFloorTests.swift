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
        let decodedImage = try VipsImage.decode(jpeg, maxWidth: image.width)
        let errors = try image.withUnsafeSamples { reference throws(VipsError) -> SquaredErrors in
            try decodedImage.withUnsafeSamples { decoded in
                SquaredErrors(decoded, reference, splitAt: textTop * image.width * 3)
            }
        }
        return (errors.psnr(of: .whole), errors.psnr(of: .tail))
    }

    @Test("A picture the first step keeps is encoded with it (4:2:0), and is within the floor")
    func firstStepSuffices() throws {
        let image = try Self.smooth()
        let floor = FidelityFloor.standard
        let picked = try floor.jpeg(of: image, textTop: 200)
        #expect(floor.steps[0] == .jpeg(quality: 85, chroma: .halved))
        #expect(picked == (try image.encoded(as: floor.steps[0])))
        let measured = try Self.psnr(of: picked, against: image, textTop: 200)
        #expect(measured.card >= floor.cardDecibels && measured.text >= floor.textDecibels)
    }

    @Test("Noise, below the floor at the first steps, is encoded with a later one, and then is within it")
    func noiseGoesHigher() throws {
        let image = try Self.noise()
        let floor = FidelityFloor.standard
        let first = try image.encoded(as: floor.steps[0])
        #expect(try Self.psnr(of: first, against: image, textTop: 200).card < floor.cardDecibels)
        let picked = try floor.jpeg(of: image, textTop: 200)
        #expect(picked.count > first.count)
        let measured = try Self.psnr(of: picked, against: image, textTop: 200)
        #expect(measured.card >= floor.cardDecibels && measured.text >= floor.textDecibels)
    }

    @Test("Colour detail that 4:2:0 blurs is encoded with every chroma sample, within the floor")
    func colourDetailKeepsChroma() throws {
        // Columns alternating red and blue over a smooth gradient: a 2x2 chroma average loses them.
        let width = 240, height = 320
        let image = try VipsImage.fromPixels(width: width, height: height, bands: 3) { (memory: UnsafeMutableBufferPointer<UInt8>) in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 3, red = x % 2 == 0
                    memory[index] = red ? 220 : 30
                    memory[index + 1] = UInt8(y * 200 / height)
                    memory[index + 2] = red ? 30 : 220
                }
            }
        }
        let floor = FidelityFloor.standard
        let picked = try floor.jpeg(of: image, textTop: 200)
        let step = try #require(floor.steps.first { (try? image.encoded(as: $0)) == picked })
        guard case .jpeg(_, .full) = step else {
            Issue.record("picked \(step), which halves the chroma")
            return
        }
        let measured = try Self.psnr(of: picked, against: image, textTop: 200)
        #expect(measured.card >= floor.cardDecibels && measured.text >= floor.textDecibels)
        // The first full-chroma step that keeps the floor, not a later one.
        let expected = try floor.steps.filter { if case .jpeg(_, .full) = $0 { true } else { false } }
            .map { try image.encoded(as: $0) }
            .first { jpeg in
                let psnr = try Self.psnr(of: jpeg, against: image, textTop: 200)
                return psnr.card >= floor.cardDecibels && psnr.text >= floor.textDecibels
            }
        #expect(picked == expected)
    }

    @Test("Only the text's rows count for the text's floor")
    func textRowsAlone() throws {
        // Noise above row 200, smooth below, and a floor on the text alone: it holds at the first
        // quality when the text's rows are the smooth ones, and not when they take in the noise.
        let noise = try Self.noise(), smooth = try Self.smooth()
        let top = try noise.pixels(as: UInt8.self).prefix(200 * 240 * 3)
        let bottom = try smooth.pixels(as: UInt8.self).dropFirst(200 * 240 * 3)
        let image = try VipsImage.fromPixels(Array(top + bottom), width: 240, height: 320, bands: 3)
        let floor = FidelityFloor(cardDecibels: 0, textDecibels: 36, steps: [.jpeg(quality: 90), .jpeg(quality: 100)])
        #expect(try floor.jpeg(of: image, textTop: 200) == (try image.encoded(as: .jpeg(quality: 90))))
        #expect(try floor.jpeg(of: image, textTop: 0) == (try image.encoded(as: .jpeg(quality: 100))))
    }

    @Test("PSNR over the whole and over the rows from the split")
    func squaredErrors() {
        let reference: [UInt8] = [10, 10, 10, 10], samples: [UInt8] = [10, 10, 12, 10]
        reference.withUnsafeBufferPointer { reference in
            samples.withUnsafeBufferPointer { samples in
                let errors = SquaredErrors(samples, reference, splitAt: 2)
                #expect(abs(errors.psnr(of: .whole) - 10 * log10(255.0 * 255 * 4 / 4)) < 1e-9)
                #expect(abs(errors.psnr(of: .tail) - 10 * log10(255.0 * 255 * 2 / 4)) < 1e-9)
                #expect(SquaredErrors(reference, reference, splitAt: 0).psnr(of: .whole) == .infinity)
            }
        }
    }
}
