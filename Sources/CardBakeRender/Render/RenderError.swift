import CardBakeFiles
import Foundation
import Vips

/// Why a card could not be rendered. Messages are sentences a user can act on.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image file could not be read.
    case unreadableImage(path: String, reason: String)
    /// libvips could not decode the image of a format it reads (truncated, corrupt).
    case undecodableImage(path: String, reason: String)
    /// The image file has no bytes.
    case emptyImage(path: String)
    /// No libvips loader recognises the file's contents (text, random bytes, an unsupported format).
    case unknownImageFormat(path: String)
    /// Only a loader libvips marks untrusted reads the format, and cardbake blocks those loaders.
    case blockedImageFormat(path: String, loader: String, summary: String)
    /// The image declares more pixels than the limit; refused before decoding.
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    /// The image's bytes changed between planning and rendering.
    case imageChanged(path: String)
    /// The style names a font family that no installed font provides.
    case unknownFont(family: String)
    /// A style's font file is missing or is not a font.
    case unusableFontFile(path: String, reason: String)
    case text(String)
    case vips(VipsError)

    public var description: String {
        switch self {
        case let .unreadableImage(path, reason):
            "cannot read image \(path): \(reason)."
        case let .undecodableImage(path, reason):
            "cannot decode image \(path): \(reason)."
        case let .emptyImage(path):
            "cannot decode image \(path): the file is empty."
        case let .unknownImageFormat(path):
            "cannot decode image \(path): its contents are not in any image format libvips reads (JPEG, PNG, WebP, TIFF, GIF, HEIF, …)."
        case let .blockedImageFormat(path, loader, summary):
            "cannot decode image \(path): its format is read only by libvips' loader \(loader) (\(summary)), which libvips "
                + "marks untrusted (not hardened against hostile files), so cardbake blocks it; convert the image to JPEG, PNG or WebP."
        case let .tooManyPixels(path, width, height, limit):
            "image \(path) is \(width) × \(height) pixels, over the limit of \(limit) pixels; raise it with --max-pixels if the image is trusted."
        case let .imageChanged(path):
            "image \(path) changed while the build was running; run the build again."
        case let .unknownFont(family):
            "no installed font provides the family \"\(family)\"; install it or name a font file with fontFile (`fc-list : family` lists the families)."
        case let .unusableFontFile(path, reason):
            "font file \(path) cannot be used: \(reason)."
        case let .text(message):
            "text layout failed: \(message)."
        case let .vips(error):
            "image processing failed: \(error)."
        }
    }
}

extension RenderError {
    /// The system's reason for a failed file operation, without the path (messages name it once).
    package static func cause(of error: any Error) -> String {
        let code: Int32? = switch error {
        case FileSystemError.cannotRead(_, let errno): errno
        case let posix as POSIXError: posix.code.rawValue
        default: ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
            .flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
        }
        return code.map { String(cString: strerror($0)).lowercased() } ?? "\(error)"
    }
}
