import Foundation

extension ThumbHash {
    /// The ThumbHash of a picture of `width × height` pixels, at most 100 on each side (scale a
    /// larger picture down first, as the format asks). `rgba` holds 4 bytes a pixel, row by row,
    /// not premultiplied by alpha. The same pixels give the reference encoder's bytes.
    public init(encodingRGBA rgba: [UInt8], width: Int, height: Int) {
        precondition((1...100).contains(width) && (1...100).contains(height), "ThumbHash takes at most 100 × 100 pixels")
        precondition(rgba.count == width * height * 4, "4 bytes a pixel")
        let pixels = width * height

        // The average colour, weighted by alpha.
        var (averageRed, averageGreen, averageBlue, averageAlpha) = (0.0, 0.0, 0.0, 0.0)
        for index in stride(from: 0, to: rgba.count, by: 4) {
            let alpha = Double(rgba[index + 3]) / 255
            averageRed += alpha / 255 * Double(rgba[index])
            averageGreen += alpha / 255 * Double(rgba[index + 1])
            averageBlue += alpha / 255 * Double(rgba[index + 2])
            averageAlpha += alpha
        }
        if averageAlpha > 0 {
            averageRed /= averageAlpha
            averageGreen /= averageAlpha
            averageBlue /= averageAlpha
        }

        let hasAlpha = averageAlpha < Double(pixels)
        let lumaLimit = Double(hasAlpha ? 5 : 7) // fewer luminance terms when alpha takes room
        let longSide = Double(max(width, height))
        let lx = max(1, Int(Self.round(lumaLimit * Double(width) / longSide)))
        let ly = max(1, Int(Self.round(lumaLimit * Double(height) / longSide)))

        // Luminance, yellow–blue, red–green and alpha, each pixel composited over the average colour.
        var l = [Double](), p = [Double](), q = [Double](), a = [Double]()
        l.reserveCapacity(pixels)
        p.reserveCapacity(pixels)
        q.reserveCapacity(pixels)
        a.reserveCapacity(pixels)
        for index in stride(from: 0, to: rgba.count, by: 4) {
            let alpha = Double(rgba[index + 3]) / 255
            let red = averageRed * (1 - alpha) + alpha / 255 * Double(rgba[index])
            let green = averageGreen * (1 - alpha) + alpha / 255 * Double(rgba[index + 1])
            let blue = averageBlue * (1 - alpha) + alpha / 255 * Double(rgba[index + 2])
            l.append((red + green + blue) / 3)
            p.append((red + green) / 2 - blue)
            q.append(red - green)
            a.append(alpha)
        }

        let dct = DCT(width: width, height: height)
        let luma = dct.encode(l, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = dct.encode(p, nx: 3, ny: 3)
        let redGreen = dct.encode(q, nx: 3, ny: 3)
        let opacity = hasAlpha ? dct.encode(a, nx: 5, ny: 5) : nil

        let isLandscape = width > height
        let header24 = Int(Self.round(63 * luma.dc))
            | Int(Self.round(31.5 + 31.5 * yellowBlue.dc)) << 6
            | Int(Self.round(31.5 + 31.5 * redGreen.dc)) << 12
            | Int(Self.round(31 * luma.scale)) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx)
            | Int(Self.round(63 * yellowBlue.scale)) << 3
            | Int(Self.round(63 * redGreen.scale)) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if let opacity {
            hash.append(UInt8(Self.round(15 * opacity.dc)) | UInt8(Self.round(15 * opacity.scale)) << 4)
        }
        let ac = luma.ac + yellowBlue.ac + redGreen.ac + (opacity?.ac ?? [])
        for (index, factor) in ac.enumerated() {
            let nibble = UInt8(Self.round(15 * factor))
            if index.isMultiple(of: 2) {
                hash.append(nibble)
            } else {
                hash[hash.count - 1] |= nibble << 4
            }
        }
        bytes = hash
    }

    /// JavaScript's `Math.round`, as the reference rounds: halves go up.
    private static func round(_ value: Double) -> Double {
        let down = value.rounded(.down)
        return value - down >= 0.5 ? down + 1 : down
    }
}

/// The cosine transform of one channel of a `width × height` picture.
private struct DCT {
    let width: Int
    let height: Int

    /// The DC term, the AC terms of the `nx × ny` triangle mapped to 0...1, and the scale they were divided by.
    func encode(_ channel: [Double], nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
        var fx = [Double](repeating: 0, count: width)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                for x in 0..<width {
                    fx[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5))
                }
                var f = 0.0
                for y in 0..<height {
                    let fy = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<width {
                        f += channel[x + y * width] * fx[x] * fy
                    }
                }
                f /= Double(width * height)
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
        }
        if scale > 0 {
            ac = ac.map { 0.5 + 0.5 / scale * $0 }
        }
        return (dc, ac, scale)
    }
}
