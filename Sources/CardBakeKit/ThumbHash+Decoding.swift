import Foundation

extension ThumbHash {
    /// A picture decoded from a hash: RGBA, 4 bytes a pixel, row by row, not premultiplied by alpha.
    public struct Image: Sendable, Hashable {
        public let width: Int
        public let height: Int
        public let rgba: [UInt8]
    }

    /// The placeholder picture, 32 pixels on its longer side and shaped as ``approximateAspectRatio``;
    /// the same pixels the reference decoder gives. Stretch it to the card's size: it is smooth.
    public func image() -> Image {
        let header = Header(bytes)
        let (lx, ly) = (header.lx, header.ly)

        // The coefficients, 4 bits each (chroma boosted 1.25× to make up for quantisation).
        var nibbles = Nibbles(bytes: bytes, start: header.acStart)
        let luma = nibbles.read(Self.coefficientCount(lx, ly), scale: header.lScale)
        let yellowBlue = nibbles.read(Self.coefficientCount(3, 3), scale: header.pScale * 1.25)
        let redGreen = nibbles.read(Self.coefficientCount(3, 3), scale: header.qScale * 1.25)
        let opacity = header.hasAlpha ? nibbles.read(Self.coefficientCount(5, 5), scale: Double(bytes[5] >> 4) / 15) : []
        let alphaDC = header.hasAlpha ? Double(bytes[5] & 15) / 15 : 1

        let ratio = approximateAspectRatio
        let width = Int((ratio > 1 ? 32 : 32 * ratio).rounded())
        let height = Int((ratio > 1 ? 32 / ratio : 32).rounded())
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        var fx = [Double](repeating: 0, count: max(lx, header.hasAlpha ? 5 : 3))
        var fy = [Double](repeating: 0, count: max(ly, header.hasAlpha ? 5 : 3))
        for y in 0..<height {
            for x in 0..<width {
                for cx in fx.indices {
                    fx[cx] = cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(cx))
                }
                for cy in fy.indices {
                    fy[cy] = cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(cy))
                }
                // Summed in the reference's order, so the pixels come out the same.
                let l = Self.sum(luma, from: header.lDC, nx: lx, ny: ly, fx: fx, fy: fy)
                var (p, q) = (header.pDC, header.qDC)
                var index = 0
                for cy in 0..<3 {
                    let fy2 = fy[cy] * 2
                    for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                        let f = fx[cx] * fy2
                        p += yellowBlue[index] * f
                        q += redGreen[index] * f
                        index += 1
                    }
                }
                let alpha = Self.sum(opacity, from: alphaDC, nx: 5, ny: 5, fx: fx, fy: fy)
                let (red, green, blue) = Self.rgb(l: l, p: p, q: q)
                for value in [red, green, blue, alpha] {
                    rgba.append(UInt8(255 * Self.clamped(value)))
                }
            }
        }
        return Image(width: width, height: height, rgba: rgba)
    }

    /// `dc` plus the AC terms of an `nx × ny` triangle at one pixel, in the order they were written;
    /// `dc` alone for no terms.
    private static func sum(_ ac: [Double], from dc: Double, nx: Int, ny: Int, fx: [Double], fy: [Double]) -> Double {
        guard !ac.isEmpty else { return dc }
        var total = dc
        var index = 0
        for cy in 0..<ny {
            var cx = cy > 0 ? 0 : 1
            let fy2 = fy[cy] * 2
            while cx * ny < nx * (ny - cy) {
                total += ac[index] * fx[cx] * fy2
                index += 1
                cx += 1
            }
        }
        return total
    }
}

/// Reads 4-bit coefficients, low nibble first.
private struct Nibbles {
    let bytes: [UInt8]
    var index: Int

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        index = start * 2
    }

    /// `count` coefficients mapped from 0...15 to −`scale`...`scale`.
    mutating func read(_ count: Int, scale: Double) -> [Double] {
        (0..<count).map { _ in
            let nibble = bytes[index / 2] >> (index % 2 * 4) & 15
            index += 1
            return (Double(nibble) / 7.5 - 1) * scale
        }
    }
}
