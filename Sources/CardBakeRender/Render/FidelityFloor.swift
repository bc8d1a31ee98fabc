import Foundation
import Vips

/// What the default JPEG promises (README, "Which format to ship"): every card within `cardDecibels`
/// PSNR of its lossless pixels, and the rows where its text is drawn within `textDecibels`. An image is
/// encoded with each of `steps` in turn, the cheapest to decode first, until one keeps both; the last
/// is used whatever it measures. An image that a halved-chroma step leaves more than
/// `halvedChromaReach` dB short goes straight to the first full-chroma step: a higher quality with
/// halved chroma would not make up that much.
package struct FidelityFloor: Sendable {
    package var cardDecibels = 38.0
    package var textDecibels = 36.0
    package var steps: [VipsEncoder] = [
        .jpeg(quality: 85, chroma: .halved), .jpeg(quality: 90, chroma: .halved),
        .jpeg(quality: 90), .jpeg(quality: 94), .jpeg(quality: 97), .jpeg(quality: 100),
    ]
    package var halvedChromaReach = 1.2

    package static let standard = FidelityFloor()

    /// `bitmap` (RGB) encoded with the first of `steps` that keeps the floor, the text's rows being
    /// those from `textTop` down. Computes `bitmap` into memory in place (``VipsImage/withUnsafeSamples(_:)``),
    /// so that each step encodes the same pixels without painting them again (``JPEGSamples``: libvips'
    /// bytes, without its pipeline).
    package func jpeg(of bitmap: VipsImage, textTop: Int) throws(VipsError) -> Data {
        try bitmap.withUnsafeSamples { reference throws(VipsError) -> Data in
            let split = min(max(textTop, 0), bitmap.height) * bitmap.width * bitmap.bands
            let decoded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: reference.count)
            defer { decoded.deallocate() }
            var index = 0
            while true {
                let step = steps[index]
                guard case let .jpeg(quality, chroma) = step else { preconditionFailure("the floor's steps are JPEG") }
                let encoded = try JPEGSamples.encodedRGB(reference, width: bitmap.width, height: bitmap.height,
                                                         quality: quality, chroma: chroma)
                if index == steps.count - 1 { return encoded }
                try JPEGSamples.decodeRGB(encoded, into: decoded, width: bitmap.width, height: bitmap.height)
                let errors = SquaredErrors(UnsafeBufferPointer(decoded), reference, splitAt: split)
                let shortfall = max(cardDecibels - errors.psnr(of: .whole), textDecibels - errors.psnr(of: .tail))
                if shortfall <= 0 { return encoded }
                index += 1
                if step.halvesChroma && shortfall > halvedChromaReach {
                    index = steps[index...].firstIndex { !$0.halvesChroma } ?? steps.count - 1
                }
            }
        }
    }
}

/// The sums of squared differences of two images' samples, over all of them and over those from a
/// split onwards.
struct SquaredErrors {
    enum Part { case whole, tail }

    private let head: (sum: Int, count: Int)
    private let tail: (sum: Int, count: Int)

    init(_ samples: UnsafeBufferPointer<UInt8>, _ reference: UnsafeBufferPointer<UInt8>, splitAt split: Int) {
        precondition(samples.count == reference.count, "the images compared have the same size and bands")
        // In runs of 65,536 samples, whose squares (at most 255² each) a UInt32 holds, with wrapping
        // arithmetic and buffers indexed from 0, so that the loop vectorises.
        func sum(_ range: Range<Int>) -> Int {
            var total = 0
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 65_536) {
                let run = start..<min(start + 65_536, range.upperBound)
                let (ours, theirs) = (UnsafeBufferPointer(rebasing: samples[run]), UnsafeBufferPointer(rebasing: reference[run]))
                var squares: UInt32 = 0
                for index in ours.indices {
                    let difference = Int32(ours[index]) &- Int32(theirs[index])
                    squares &+= UInt32(bitPattern: difference &* difference)
                }
                total += Int(squares)
            }
            return total
        }
        head = (sum(0..<split), split)
        tail = (sum(split..<samples.count), samples.count - split)
    }

    /// Peak signal-to-noise ratio in dB of 8-bit samples (infinity where they are equal or there are none).
    func psnr(of part: Part) -> Double {
        let (sum, count) = part == .whole ? (head.sum + tail.sum, head.count + tail.count) : tail
        guard sum > 0 else { return .infinity }
        return 10 * log10(255.0 * 255.0 * Double(count) / Double(sum))
    }
}

private extension VipsEncoder {
    var halvesChroma: Bool {
        if case .jpeg(_, .halved) = self { true } else { false }
    }
}
