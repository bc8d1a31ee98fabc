import Foundation
@testable import CardBake
import CardBakeCatalog
import CardBakeManifest
import Testing
import Vips

/// Output images carry their pixels and nothing about them: no EXIF, XMP, ICC profile or
/// resolution, whatever the source carried, in every format.
@Suite("Output metadata", .vips)
struct OutputMetadataTests {
    static let formats = ["png", "jpeg", "webp", "heic", "avif"]

    /// A JPEG carrying EXIF (orientation 6) and an ICC profile.
    static let taggedSource = SourceDecodingTests.fixtures.appendingPathComponent("cmyk-profile.jpg")

    @Test("A card built from a tagged source carries no metadata and decodes at its size", arguments: formats)
    func builtCard(_ format: String) async throws {
        let fixture = try BuildFixture(images: [:])
        try FileManager.default.createDirectory(at: fixture.folder.file("images"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.taggedSource, to: fixture.folder.file("images/tagged.jpg"))
        fixture.cards = [["id": "tagged", "image": "images/tagged.jpg", "title": "Tagged", "description": "EXIF and ICC."]]
        fixture.style = ["scales": [1, 2], "format": format]
        let report = try await fixture.build()
        #expect(report.count(.rendered) == 1)
        let entry = try #require(fixture.manifest?.cards.first)
        for (scale, image) in entry.images {
            let bytes = try Data(contentsOf: fixture.output.appendingPathComponent(image.file))
            #expect(ImageContainer.metadata(in: bytes) == [], "\(format) \(scale)")
            let bitmap = try Bitmap(encoded: bytes)
            #expect(bitmap.width == image.width && bitmap.height == image.height && bitmap.bands == 3)
        }
    }

    /// PNG is lossless; the lossy formats' chroma subsampling moves the picture's sharp colour edges.
    @Test("Encoding an image that holds EXIF and an ICC profile writes neither, and keeps the pixels",
          arguments: [(VipsEncoder.png(compression: 2, filter: .adaptive), 0), (.jpeg(quality: 90), 128), (.webp(quality: 90), 128)])
    func encodedImage(_ encoder: VipsEncoder, maxTolerance: Int) throws {
        let source = try VipsImage.decode(try Data(contentsOf: Self.taggedSource), maxWidth: 1000)
        let bytes = try source.encoded(as: encoder)
        #expect(ImageContainer.metadata(in: bytes) == [])
        try expectSimilar(try VipsImage.decode(bytes, maxWidth: 1000), source, meanTolerance: maxTolerance == 0 ? 0 : 3,
                          maxTolerance: maxTolerance, name: "tagged-source-encoded")
    }

    @Test("What is left of each format is what decoding needs")
    func partsLeft() throws {
        let image = try TestImage.blocks(width: 40, height: 30)
        let png = try #require(ImageContainer.pngChunks(try image.encoded(as: .png(compression: 2, filter: .adaptive))))
        #expect(Set(png.map(\.name)) == ["IHDR", "IDAT", "IEND"] && png.first?.name == "IHDR")
        let webp = try #require(ImageContainer.webpChunks(try image.encoded(as: .webp(quality: 80))))
        #expect(webp.map(\.name) == ["VP8 "])
        let translucent = try TestImage.solid(width: 40, height: 30, [200, 30, 30, 128]).encoded(as: .webp(quality: 80))
        #expect(ImageContainer.webpChunks(translucent)?.map(\.name) == ["VP8X", "ALPH", "VP8 "])
        #expect(try Bitmap(encoded: translucent).pixel(20, 15).last.map { abs($0 - 128) <= 2 } == true)
        let jpeg = try #require(ImageContainer.jpegSegments(try image.encoded(as: .jpeg(quality: 80))))
        #expect(jpeg.allSatisfy { !(0xE0...0xEF).contains(UInt8($0.name.suffix(2), radix: 16)!) }, "no APPn: \(jpeg.map(\.name))")
        #expect(jpeg.last?.name == "FFDA")
    }
}
