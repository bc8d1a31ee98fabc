import Foundation
import Vips

/// A card's source image, read once and decoded once at the largest size any output needs.
struct SourceImage {
    /// Size after EXIF orientation, from the header; the card's geometry follows it exactly.
    let width: Int
    let height: Int
    /// 8-bit sRGB, 3 bands or 4 with alpha, at most the requested width.
    let decoded: VipsImage

    /// Reads `file`, checks its bytes still hash to `digest`, refuses more than `maxPixels` after
    /// reading only the header, then decodes with shrink-on-load to at most `maxWidth` pixels wide.
    static func load(_ file: URL, digest: Digest, maxPixels: Int, maxWidth: Int) throws(RenderError) -> SourceImage {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            throw .unreadableImage(path: file.path, reason: RenderError.cause(of: error))
        }
        guard Digest.sha256(bytes) == digest else {
            throw .imageChanged(path: file.path)
        }
        do {
            let header = try VipsImage.header(of: bytes)
            guard header.width * header.height <= maxPixels else {
                throw RenderError.tooManyPixels(path: file.path, width: header.width, height: header.height, limit: maxPixels)
            }
            let decoded = try VipsImage.decode(bytes, maxWidth: maxWidth)
            return SourceImage(width: header.width, height: header.height, decoded: decoded)
        } catch let error as VipsError {
            throw .undecodableImage(path: file.path, reason: error.message)
        } catch let error as RenderError {
            throw error
        } catch {
            throw .undecodableImage(path: file.path, reason: "\(error)")
        }
    }
}
