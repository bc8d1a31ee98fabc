import CardBakeCatalog
import Vips

/// The colour an app shows before the card's bitmap is decoded: the most common colour of the
/// source, found by counting pixels of a small copy in 4-bit-per-channel bins and averaging the
/// fullest bin (weighted by alpha, so transparent pixels do not count).
package enum DominantColor {
    package static func of(_ source: VipsImage) throws(VipsError) -> CardColor {
        let sampleWidth = 48.0
        let factor = min(1, sampleWidth / Double(max(source.width, source.height)))
        let small = try source.resized(horizontally: factor, vertically: factor)
        let samples: [UInt8] = try small.pixels()
        let bands = small.bands
        var weight = [Double](repeating: 0, count: 4096)
        var sums = [Double](repeating: 0, count: 4096 * 3)
        var index = 0
        while index + 2 < samples.count {
            let alpha = bands == 4 ? Double(samples[index + 3]) / 255 : 1
            let r = Int(samples[index]), g = Int(samples[index + 1]), b = Int(samples[index + 2])
            let bin = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4
            weight[bin] += alpha
            sums[bin * 3] += Double(r) * alpha
            sums[bin * 3 + 1] += Double(g) * alpha
            sums[bin * 3 + 2] += Double(b) * alpha
            index += bands
        }
        guard let best = weight.indices.max(by: { weight[$0] < weight[$1] }), weight[best] > 0 else {
            return CardColor(red: 128, green: 128, blue: 128)
        }
        func mean(_ band: Int) -> UInt8 { UInt8((sums[best * 3 + band] / weight[best]).rounded()) }
        return CardColor(red: mean(0), green: mean(1), blue: mean(2))
    }
}
