import CardBakeCache
import CardBakeManifest
import Foundation
import Vips

/// A card's source image, read once and decoded once at the largest size any output needs.
package struct SourceImage: Sendable {
    /// Size after EXIF orientation, from the header; the card's geometry follows it exactly.
    package let width: Int
    package let height: Int
    /// 8-bit sRGB, 3 bands or 4 with alpha, at most the requested width.
    package let decoded: VipsImage

    /// Reads `file`, checks its bytes still hash to `digest`, refuses more than `maxPixels` after reading
    /// only the header (decoding them would take the memory and time a decompression bomb does), then
    /// decodes with shrink-on-load to at most `maxWidth(width, height)` pixels wide (given the header's
    /// size), never more than the source declares.
    /// A source however tall for its width is accepted: a card crops the feature it shows from the middle
    /// (see ``CardLayout/FeatureScaling``).
    package static func load(_ file: URL, digest: ContentDigest, maxPixels: Int,
                             maxWidth: (_ width: Int, _ height: Int) -> Int) throws(RenderError) -> SourceImage {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            throw .unreadableImage(path: file.path, reason: RenderError.cause(of: error))
        }
        guard ContentDigest.sha256(bytes) == digest else {
            throw .imageChanged(path: file.path)
        }
        let header: VipsImageHeader
        do {
            header = try VipsImage.header(of: bytes)
        } catch {
            throw failure(decoding: bytes, of: file, error)
        }
        guard header.width * header.height <= maxPixels else {
            throw .tooManyPixels(path: file.path, width: header.width, height: header.height, limit: maxPixels)
        }
        do {
            return SourceImage(width: header.width, height: header.height,
                               decoded: try VipsImage.decode(bytes, maxWidth: maxWidth(header.width, header.height)))
        } catch {
            throw failure(decoding: bytes, of: file, error)
        }
    }

    /// Why `bytes` did not decode: no bytes, a format libvips does not know, one only a blocked
    /// (untrusted) loader reads, or else damage to a known format, which libvips' `error` describes.
    private static func failure(decoding bytes: Data, of file: URL, _ error: VipsError) -> RenderError {
        if bytes.isEmpty { return .emptyImage(path: file.path) }
        switch VipsLoader.recognising(bytes) {
        case nil:
            return .unknownImageFormat(path: file.path)
        case let loader? where loader.isBlocked:
            return .blockedImageFormat(path: file.path, loader: loader.name, summary: loader.summary)
        case _?:
            return .undecodableImage(path: file.path, reason: error.message)
        }
    }
}
