import Foundation
@testable import CardBakeCache
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Glibc
import Testing
import Vips

/// ``VipsImage/decode(file:observer:maxWidth:)`` reads a source file once, in order, a piece at a
/// time, and decodes it as from memory; ``SourceImage`` checks the bytes it read against the digest.
@Suite("Decoding from a file", .vips)
struct FileDecodingTests {
    /// Keeps every piece it is handed.
    final class Recorder: VipsReadObserver {
        private(set) var bytes = Data()
        private(set) var largestPiece = 0

        func observe(_ piece: UnsafeRawBufferPointer) {
            bytes.append(contentsOf: piece)
            largestPiece = max(largestPiece, piece.count)
        }
    }

    static func decode(_ file: URL, maxWidth: @escaping (VipsImageHeader) -> Int? = { _ in 1000 })
        throws -> (decoded: DecodedFile<Recorder>, offsetAfter: off_t) {
        let opened = try ReadableFile(path: file.path)
        let decoded = try VipsImage.decode(file: opened.descriptor, observer: Recorder.init, maxWidth: maxWidth)
        return (decoded, lseek(opened.descriptor, 0, SEEK_CUR))
    }

    @Test("Each format is read whole, once and in order, and decodes to the pixels of the in-memory decode",
          arguments: ["orientation-6.jpg", "cmyk.jpg", "cmyk-profile.jpg", "gray-rgb-profile.jpg", "display-p3.png",
                      "rgb16.png", "palette.png", "gray-alpha.png", "transparent.png", "picture.tiff", "picture.webp",
                      "animated.gif"])
    func sameAsMemory(_ name: String) throws {
        // Given
        let file = SourceDecodingTests.fixtures.appendingPathComponent(name)
        let bytes = try Data(contentsOf: file)

        // When
        let (decoded, offsetAfter) = try Self.decode(file)

        // Then
        #expect(decoded.observer.bytes == bytes)
        #expect(offsetAfter == 0, "the descriptor's own offset is left alone")
        #expect(decoded.header == (try VipsImage.header(of: bytes)))
        let image = try #require(decoded.image)
        let expected = try Bitmap(VipsImage.decode(bytes, maxWidth: 1000))
        let actual = try Bitmap(image)
        #expect((actual.width, actual.height, actual.bands) == (expected.width, expected.height, expected.bands))
        #expect(actual.samples == expected.samples)
    }

    @Test("A HEIC, AVIF or WebP file, which loaders read out of order, decodes as from memory",
          arguments: [VipsEncoder.heif(quality: 80, compression: .hevc), .heif(quality: 80, compression: .av1),
                      .webp(quality: 90)])
    func outOfOrderFormats(_ encoder: VipsEncoder) throws {
        // Given: a gradient, encoded
        let directory = try TemporaryDirectory()
        var gradient: [UInt8] = []
        for y in 0..<240 {
            for x in 0..<320 { gradient += [UInt8(x * 255 / 319), UInt8(y), 90] }
        }
        let bytes = try VipsImage.fromPixels(gradient, width: 320, height: 240, bands: 3).encoded(as: encoder)
        let file = directory.file("image")
        try bytes.write(to: file)

        // When
        let (decoded, _) = try Self.decode(file)

        // Then
        #expect(decoded.observer.bytes == bytes)
        let actual = try Bitmap(try #require(decoded.image))
        #expect(actual.samples == (try Bitmap(VipsImage.decode(bytes, maxWidth: 1000))).samples)
    }

    @Test("A large JPEG is read a piece at a time, never whole, and shrunk on load")
    func piecewise() throws {
        // Given: 1600 × 1200 of noise, which JPEG cannot compress to a few pieces
        let directory = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<1600 * 1200 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let jpeg = try VipsImage.fromPixels(noise, width: 1600, height: 1200, bands: 3).encoded(as: .jpeg(quality: 90))
        let file = directory.url.appendingPathComponent("noise.jpg")
        try jpeg.write(to: file)

        // When
        let (decoded, _) = try Self.decode(file) { _ in 400 }

        // Then
        #expect(decoded.observer.bytes == jpeg)
        #expect(decoded.observer.largestPiece <= jpeg.count / 8, "read in pieces of at most \(decoded.observer.largestPiece) bytes")
        let image = try #require(decoded.image)
        #expect((image.width, image.height) == (400, 300))
    }

    @Test("A header refused decodes nothing, yet the whole file is read for its digest")
    func refusedHeader() throws {
        // Given
        let file = SourceDecodingTests.fixtures.appendingPathComponent("bomb.png")
        var seen: VipsImageHeader?

        // When
        let (decoded, _) = try Self.decode(file) { header in
            seen = header
            return nil
        }

        // Then
        #expect(seen?.width == 100_000)
        #expect(seen?.height == 100_000)
        #expect(decoded.image == nil)
        #expect(decoded.observer.bytes == (try Data(contentsOf: file)))
    }

    @Test("A text file in libvips' matrix format is no image: its loader, which only a file reaches, is blocked")
    func matrixText() throws {
        // Given
        let directory = try TemporaryDirectory()
        let file = directory.file("matrix.txt")
        let bytes = Data("2 2\n1 2\n3 4\n".utf8)
        try bytes.write(to: file)

        // When, then
        #expect(throws: RenderError.unknownImageFormat(path: file.path)) {
            try SourceImage.load(file, digest: .sha256(bytes), maxPixels: 1000) { _, _ in 10 }
        }
    }

    @Test("A source whose bytes no longer hash to the build's digest is refused as changed, decodable or not",
          arguments: ["orientation-1.jpg", "bomb.png", "untrusted.svg"])
    func changedSince(_ name: String) throws {
        // Given: the digest of other bytes, as when the file is saved again after the build hashed it
        let file = SourceDecodingTests.fixtures.appendingPathComponent(name)
        let stale = ContentDigest.sha256(Data("the bytes the build hashed".utf8))

        // When
        var error: RenderError?
        do {
            _ = try SourceImage.load(file, digest: stale, maxPixels: 1_000_000) { _, _ in 960 }
        } catch let thrown {
            error = thrown
        }

        // Then
        #expect(error == .imageChanged(path: file.path))
    }
}
