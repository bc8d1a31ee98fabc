import CardBakeCatalog
import Vips

extension OutputFormat {
    /// The encoder for these settings.
    package var encoder: VipsEncoder {
        let quality = effectiveQuality ?? 100
        return switch kind {
        case .png: .png(compression: pngCompression, filter: pngFilter.encoderFilter)
        case .jpeg: .jpeg(quality: quality)
        case .webp: .webp(quality: quality)
        case .heic: .heif(quality: quality, compression: .hevc)
        case .avif: .heif(quality: quality, compression: .av1)
        }
    }
}

extension OutputFormat.PNGFilter {
    /// The encoder's filter for this choice.
    package var encoderFilter: VipsEncoder.PNGFilter {
        switch self {
        case .none: .none
        case .sub: .sub
        case .up: .up
        case .average: .average
        case .paeth: .paeth
        case .adaptive: .adaptive
        }
    }
}
