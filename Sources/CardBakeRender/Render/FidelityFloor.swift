import Foundation
import Vips

/// What the default JPEG promises (README, "Which format to ship"): every card within `cardDecibels`
/// PSNR of its lossless pixels, and the rows where its text is drawn within `textDecibels`. An image
/// that the first of `qualities` leaves below either is encoded again at the next, until both hold;
/// the last is used whatever it measures.
package struct FidelityFloor: Sendable {
    package var cardDecibels = 38.0
    package var textDecibels = 36.0
    package var qualities = [90, 94, 97, 100]

    package static let standard = FidelityFloor()

    /// `bitmap` as JPEG at the lowest of `qualities` that keeps the floor, the text's rows being those
    /// from `textTop` down.
    package func jpeg(of bitmap: VipsImage, textTop: Int) throws(VipsError) -> Data {
        let lossless = try bitmap.inMemory()
        let reference = try lossless.pixels(as: UInt8.self)
        let rowLength = lossless.width * lossless.bands
        var encoded = Data()
        for quality in qualities {
            encoded = try lossless.encoded(as: .jpeg(quality: quality))
            let decoded = try VipsImage.decode(encoded, maxWidth: lossless.width).pixels(as: UInt8.self)
            let errors = SquaredErrors(decoded, reference, splitAt: min(max(textTop, 0), lossless.height) * rowLength)
            if errors.psnr(of: .whole) >= cardDecibels && errors.psnr(of: .tail) >= textDecibels { break }
        }
        return encoded
    }
}

/// The sums of squared differences of two images' samples, over all of them and over those from a
/// split onwards.
struct SquaredErrors {
    enum Part { case whole, tail }

    private let head: (sum: Int, count: Int)
    private let tail: (sum: Int, count: Int)

    init(_ samples: [UInt8], _ reference: [UInt8], splitAt split: Int) {
        precondition(samples.count == reference.count, "the images compared have the same size and bands")
        func sum(_ range: Range<Int>) -> Int {
            samples.withUnsafeBufferPointer { samples in
                reference.withUnsafeBufferPointer { reference in
                    var total = 0
                    for index in range {
                        let difference = Int(samples[index]) - Int(reference[index])
                        total &+= difference * difference
                    }
                    return total
                }
            }
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
