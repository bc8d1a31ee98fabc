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
        // Many pixels share a colour (a blurred background at 8 bits, a text's fill): each colour is
        // converted once while it stays in a small table of recent ones.
        var recent = RecentColors()
        var index = 0
        while index < samples.count {
            let color = recent.oklab(red: samples[index], green: samples[index + 1], blue: samples[index + 2])
            l += color.l
            a += color.a
            b += color.b
            index += 3
        }
        let count = Double(samples.count / 3)
        return Oklab(l: l / count, a: a / count, b: b / count).sRGB
    }
}

/// Oklab colours of recently seen 8-bit sRGB pixels, in a direct-mapped table.
private struct RecentColors {
    private static let slots = 4096
    /// Each slot's pixel as 0xRRGGBB with bit 24 set once the slot holds one.
    private var keys = [UInt32](repeating: 0, count: slots)
    private var colors = [Oklab](repeating: Oklab(l: 0, a: 0, b: 0), count: slots)

    mutating func oklab(red: UInt8, green: UInt8, blue: UInt8) -> Oklab {
        let key = 1 << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        let slot = Int((key &* 0x9E37_79B1) >> 20) & (Self.slots - 1)
        if keys[slot] != key {
            keys[slot] = key
            colors[slot] = Oklab(red: red, green: green, blue: blue)
        }
        return colors[slot]
    }
}
