import Foundation
import Testing
import Vips

@Suite("JPEG samples straight from libjpeg-turbo", .vips)
struct JPEGSamplesTests {
    static func decoded(_ jpeg: Data, width: Int, height: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count throws(VipsError) in
            try JPEGSamples.decodeRGB(jpeg, into: buffer, width: width, height: height)
            count = buffer.count
        }
    }

    @Test("The samples are those libvips' loader gives, for full and halved chroma, smooth pictures and noise",
          arguments: [VipsEncoder.jpeg(quality: 85, chroma: .halved), .jpeg(quality: 90), .jpeg(quality: 100)])
    func sameAsLibvips(encoder: VipsEncoder) throws {
        for image in [try FidelityFloorTests.smooth(width: 243, height: 317), try FidelityFloorTests.noise()] {
            let jpeg = try image.encoded(as: encoder)
            let expected = try VipsImage.decode(jpeg, maxWidth: image.width).withUnsafeSamples { [UInt8]($0) }
            let actual = try Self.decoded(jpeg, width: image.width, height: image.height)
            #expect(actual == expected)
        }
    }

    @Test("The bytes are those libvips' saver writes for the same samples, for full and halved chroma",
          arguments: [VipsEncoder.jpeg(quality: 85, chroma: .halved), .jpeg(quality: 90), .jpeg(quality: 97)])
    func encodesAsLibvips(encoder: VipsEncoder) throws {
        guard case let .jpeg(quality, chroma) = encoder else { return }
        for image in [try FidelityFloorTests.smooth(width: 243, height: 317), try FidelityFloorTests.noise()] {
            let ours = try image.withUnsafeSamples { samples throws(VipsError) in
                try JPEGSamples.encodedRGB(samples, width: image.width, height: image.height, quality: quality, chroma: chroma)
            }
            #expect(ours == (try image.encoded(as: encoder)), "\(image.width)x\(image.height) at \(encoder)")
        }
    }

    @Test("Bytes that are not a JPEG, a truncated JPEG and a JPEG of another size throw, naming the problem")
    func badInputThrows() throws {
        let jpeg = try FidelityFloorTests.smooth().encoded(as: .jpeg(quality: 85, chroma: .halved))
        let wrongSize = #expect(throws: VipsError.self) { try Self.decoded(jpeg, width: 240, height: 300) }
        #expect(wrongSize?.message == "a 240x320 JPEG, not 240x300")
        #expect(throws: VipsError.self) { try Self.decoded(Data("not a jpeg".utf8), width: 240, height: 320) }
        #expect(throws: VipsError.self) { try Self.decoded(jpeg.prefix(jpeg.count / 2), width: 240, height: 320) }
    }
}
