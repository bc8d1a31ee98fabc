import CardBakeCache
import CardBakeFiles
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

    /// Decodes `file` with shrink-on-load to at most `maxWidth(width, height)` pixels wide (given the
    /// header's size), never more than the source declares, after refusing more than `maxPixels` from
    /// the header alone (decoding them would take the memory and time a decompression bomb does).
    /// The file is read once, a piece at a time as libvips decodes it, and its bytes must hash to
    /// `digest`: the pixels are those of the bytes the build hashed, and the file is never held whole
    /// (unless its format needs it, as TIFF and HEIF do).
    /// A source however tall for its width is accepted: a card crops the feature it shows from the middle
    /// (see ``CardLayout/FeatureScaling``).
    package static func load(_ file: URL, digest: ContentDigest, maxPixels: Int,
                             maxWidth: (_ width: Int, _ height: Int) -> Int) throws(RenderError) -> SourceImage {
        let opened: ReadableFile
        do {
            opened = try ReadableFile(path: file.fileSystemPath)
        } catch {
            throw .unreadableImage(path: file.path, reason: RenderError.cause(of: error))
        }
        let decoded: DecodedFile<DigestingReader>
        do {
            decoded = try VipsImage.decode(file: opened.descriptor, observer: DigestingReader.init) { header in
                header.width * header.height <= maxPixels ? maxWidth(header.width, header.height) : nil
            }
        } catch {
            throw failure(decoding: file, digest: digest, error)
        }
        guard decoded.observer.hasher.digest == digest else {
            throw .imageChanged(path: file.path)
        }
        let header = decoded.header
        guard let image = decoded.image else {
            throw .tooManyPixels(path: file.path, width: header.width, height: header.height, limit: maxPixels)
        }
        return SourceImage(width: header.width, height: header.height, decoded: image)
    }

    /// Why `file`, which should hash to `digest`, did not decode: it changed since it was hashed, or
    /// it cannot be read, or as ``failure(decoding:of:_:)`` says. Reads the whole file: failures are rare.
    private static func failure(decoding file: URL, digest: ContentDigest, _ error: VipsError) -> RenderError {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            return .unreadableImage(path: file.path, reason: RenderError.cause(of: error))
        }
        guard ContentDigest.sha256(bytes) == digest else { return .imageChanged(path: file.path) }
        return failure(decoding: bytes, of: file, error)
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

/// Hashes the bytes of a source file as libvips reads them.
private final class DigestingReader: VipsReadObserver {
    private(set) var hasher = ContentDigest.Hasher()

    func observe(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bytes)
    }
}
