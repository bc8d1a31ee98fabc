import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

/// What ``SourceImage/load(_:digest:maxPixels:maxWidth:)`` refuses, and how it says so.
@Suite("Source image refusals", .vips)
struct SourceImageTests {
    static let defaultLimit = 100_000_000

    static func fixture(_ name: String) -> URL { SourceDecodingTests.fixtures.appendingPathComponent(name) }

    /// The error loading `file` for a card 320 points wide at 3x throws, or nil when it loads.
    static func failure(loading file: URL, maxPixels: Int = defaultLimit) -> RenderError? {
        do {
            let digest = ContentDigest.sha256((try? Data(contentsOf: file)) ?? Data())
            _ = try SourceImage.load(file, digest: digest, maxPixels: maxPixels) { _, _ in 960 }
            return nil
        } catch {
            return error
        }
    }

    /// bomb.png declares 100,000 × 100,000 pixels but holds one row of data: had any pixel been
    /// decoded, the error would be a decoding error (see the next test), not the pixel limit.
    @Test("A PNG declaring 100,000 × 100,000 pixels is refused from its header, naming the limit")
    func decompressionBomb() throws {
        // When
        let clock = ContinuousClock()
        var error: RenderError?
        let elapsed = clock.measure { error = Self.failure(loading: Self.fixture("bomb.png")) }

        // Then
        #expect(error == .tooManyPixels(path: Self.fixture("bomb.png").path, width: 100_000, height: 100_000, limit: Self.defaultLimit))
        #expect(error?.description.contains("over the limit of 100000000 pixels; raise it with --max-pixels") == true)
        // Decoding 10^10 pixels would take minutes; the bound only catches that, it is no benchmark.
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test("Over a raised limit the bomb is decoded, and fails as the truncated image it is")
    func decompressionBombAllowed() throws {
        // When
        let error = Self.failure(loading: Self.fixture("bomb.png"), maxPixels: 100_000 * 100_000)

        // Then (libvips' own text is not checked: its error buffer is shared by every thread)
        let isDecodingError = if case .undecodableImage? = error { true } else { false }
        #expect(isDecodingError, "expected a decoding error, got \(String(describing: error))")
    }

    @Test("An image however tall for its width is not refused, and is decoded at its own size, never upscaled")
    func tall() throws {
        try withTemporaryDirectory { folder in
            // Given 1 × 4000 pixels, which fitted whole to a 320-point card would be 1,280,000 points tall
            let file = folder.appendingPathComponent("tall.png")
            try TestImage.write(try TestImage.solid(width: 1, height: 4000, [200, 60, 40]), to: file)

            // When loaded for a card 960 pixels wide
            let source = try SourceImage.load(file, digest: ContentDigest.sha256(try Data(contentsOf: file)),
                                              maxPixels: Self.defaultLimit) { _, _ in 960 }

            // Then its header size is kept for the layout, and only its own 4000 pixels are decoded
            #expect(source.width == 1 && source.height == 4000)
            #expect(source.decoded.width == 1 && source.decoded.height == 4000)
        }
    }

    @Test("A tall image over the pixel limit is refused from its header like any other")
    func tallOverLimit() throws {
        try withTemporaryDirectory { folder in
            // Given 1 × 4000 pixels and a limit of 3999
            let file = folder.appendingPathComponent("tall.png")
            try TestImage.write(try TestImage.solid(width: 1, height: 4000, [200, 60, 40]), to: file)

            // When
            let error = Self.failure(loading: file, maxPixels: 3999)

            // Then
            #expect(error == .tooManyPixels(path: file.path, width: 1, height: 4000, limit: 3999))
        }
    }

    @Test("A format only an untrusted loader reads is refused, saying which loader and that it is blocked")
    func untrustedFormat() throws {
        // When
        let error = Self.failure(loading: Self.fixture("untrusted.svg"))

        // Then
        #expect(error == .blockedImageFormat(path: Self.fixture("untrusted.svg").path, loader: "svgload_buffer", summary: "load SVG with rsvg"))
        let message = error?.description ?? ""
        #expect(message.contains("svgload_buffer") && message.contains("untrusted") && message.contains("blocks"), "\(message)")
    }

    @Test("A format libvips reads is never reported as blocked, though untrusted loaders sniff it too")
    func trustedFormatNotBlocked() throws {
        // Given PNG bytes, which ImageMagick's (blocked) loader also recognises
        let bytes = try Data(contentsOf: Self.fixture("gray.png"))

        // When
        let loader = VipsLoader.recognising(bytes)

        // Then
        #expect(loader?.name == "pngload_buffer")
        #expect(loader?.isBlocked == false)
    }
}
