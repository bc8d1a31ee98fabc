import Foundation

/// A ThumbHash: a picture's placeholder in about 25 bytes, in Evan Wallace's format
/// (https://evanw.github.io/thumbhash/). Hashes made here are byte for byte those of the reference
/// encoder, and any ThumbHash decoder, in any language, reads them.
///
///     let hash = ThumbHash(base64: entry.placeholder.thumbhash)
///     let image = hash?.image()          // about 32 × 32 RGBA pixels to stretch to the card's size
///     let color = hash?.averageColor     // a flat colour, if that is all the view needs
public struct ThumbHash: Sendable, Hashable {
    /// The hash's bytes: a header, then the DCT coefficients, 4 bits each.
    public let bytes: [UInt8]

    /// The hash in `bytes`; nil when they are too few for the coefficients their header announces,
    /// or the header records no luminance across or down.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 5 else { return nil }
        let header = Header(bytes)
        guard header.lumaColumns > 0, header.lumaRows > 0,
              bytes.count >= header.acStart + (header.acCount + 1) / 2 else { return nil }
        self.bytes = bytes
    }

    /// The hash in standard base64 (with or without padding); nil for text that is not one.
    public init?(base64: String) {
        var padded = base64
        padded += String(repeating: "=", count: (4 - padded.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: padded) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    /// Standard base64 with padding, as the manifest's `placeholder.thumbhash` holds it.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// A colour with components from 0 to 1, not premultiplied by alpha.
    public struct Color: Sendable, Hashable {
        public var red, green, blue, alpha: Double

        public init(red: Double, green: Double, blue: Double, alpha: Double) {
            (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        }
    }

    /// The picture's average colour, read from the header alone.
    public var averageColor: Color {
        let header = Header(bytes)
        let (red, green, blue) = Self.rgb(l: header.lDC, p: header.pDC, q: header.qDC)
        return Color(red: Self.clamped(red), green: Self.clamped(green), blue: Self.clamped(blue),
                     alpha: header.hasAlpha ? Double(bytes[5] & 15) / 15 : 1)
    }

    /// Width over height of the hashed picture, as closely as the hash records it (a ratio of two
    /// integers from 1 to 7: 320 × 514 reads as 4 / 7).
    public var approximateAspectRatio: Double {
        let header = Header(bytes)
        return Double(header.lumaColumns) / Double(header.lumaRows)
    }

    static func rgb(l: Double, p: Double, q: Double) -> (red: Double, green: Double, blue: Double) {
        let blue = l - 2.0 / 3.0 * p
        let red = (3 * l - blue + q) / 2
        return (red, red - q, blue)
    }

    static func clamped(_ value: Double) -> Double { max(0, min(1, value)) }
}

extension ThumbHash {
    /// The fields packed into a hash's first five bytes (six with alpha).
    struct Header {
        let lDC, pDC, qDC, lScale, pScale, qScale: Double
        let hasAlpha, isLandscape: Bool
        /// The luminance coefficients recorded across and down (the counts the ratio is read from).
        let lumaColumns, lumaRows: Int

        init(_ bytes: [UInt8]) {
            let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
            lDC = Double(header24 & 63) / 63
            pDC = Double(header24 >> 6 & 63) / 31.5 - 1
            qDC = Double(header24 >> 12 & 63) / 31.5 - 1
            lScale = Double(header24 >> 18 & 31) / 31
            hasAlpha = header24 >> 23 != 0
            pScale = Double(header16 >> 3 & 63) / 63
            qScale = Double(header16 >> 9 & 63) / 63
            isLandscape = header16 >> 15 != 0
            let longSide = hasAlpha ? 5 : 7
            let shortSide = header16 & 7
            (lumaColumns, lumaRows) = isLandscape ? (longSide, shortSide) : (shortSide, longSide)
        }

        /// Luminance coefficients decoded across and down: at least 3 each.
        var lx: Int { max(3, lumaColumns) }
        var ly: Int { max(3, lumaRows) }

        /// Where the 4-bit coefficients begin.
        var acStart: Int { hasAlpha ? 6 : 5 }

        /// How many 4-bit coefficients follow the header.
        var acCount: Int {
            ThumbHash.coefficientCount(lx, ly) + 2 * ThumbHash.coefficientCount(3, 3)
                + (hasAlpha ? ThumbHash.coefficientCount(5, 5) : 0)
        }
    }

    /// The AC coefficients kept of an `nx × ny` DCT: the triangle `cx·ny < nx·(ny − cy)`, less the DC term.
    static func coefficientCount(_ nx: Int, _ ny: Int) -> Int {
        var count = 0
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                count += 1
                cx += 1
            }
        }
        return count - 1
    }
}
