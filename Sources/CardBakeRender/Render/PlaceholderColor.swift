import CardBakeCatalog

/// The colour an app shows in a card's place before its bitmap is decoded: the mean of the card's
/// pixels in Oklab. In Oklab distance follows perceived difference, and the mean is the colour
/// nearest to all the pixels at once (least summed squared ΔE), so the swap to the bitmap changes
/// what the eye sees as little as one colour can.
package enum PlaceholderColor {
    /// `samples` are a rendered card's pixels: opaque 8-bit sRGB, three samples per pixel.
    package static func of(_ samples: [UInt8]) -> CardColor {
        precondition(samples.count >= 3 && samples.count % 3 == 0, "opaque RGB pixels")
        var (l, a, b) = (0.0, 0.0, 0.0)
        // Neighbouring pixels are often the same colour (a blurred background at 8 bits, a text's
        // fill): each is converted once per run.
        var previous = (samples[0], samples[1], samples[2])
        var color = Oklab(red: previous.0, green: previous.1, blue: previous.2)
        var index = 0
        while index < samples.count {
            let pixel = (samples[index], samples[index + 1], samples[index + 2])
            if pixel != previous {
                previous = pixel
                color = Oklab(red: pixel.0, green: pixel.1, blue: pixel.2)
            }
            l += color.l
            a += color.a
            b += color.b
            index += 3
        }
        let count = Double(samples.count / 3)
        return Oklab(l: l / count, a: a / count, b: b / count).sRGB
    }
}
