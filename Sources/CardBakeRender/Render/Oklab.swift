import CardBakeCatalog
import Foundation

/// A colour in Oklab (Björn Ottosson, 2020), where straight-line distance and averages follow
/// perceived differences: `l` is lightness from 0 (black) to 1 (white), `a` green to red, `b`
/// blue to yellow. Converted from and to sRGB with the D65 white point.
package struct Oklab: Sendable, Equatable {
    package var l: Double
    package var a: Double
    package var b: Double

    package init(l: Double, a: Double, b: Double) {
        (self.l, self.a, self.b) = (l, a, b)
    }

    /// The colour of an 8-bit sRGB pixel.
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.init(linearRed: Self.linear[Int(red)], green: Self.linear[Int(green)], blue: Self.linear[Int(blue)])
    }

    /// The colour of `color`'s red, green and blue (alpha ignored).
    package init(_ color: CardColor) {
        self.init(red: color.red, green: color.green, blue: color.blue)
    }

    /// The colour of linear-light sRGB components (0–1).
    package init(linearRed red: Double, green: Double, blue: Double) {
        let l = Self.cubeRoot(0.4122214708 * red + 0.5363325363 * green + 0.0514459929 * blue)
        let m = Self.cubeRoot(0.2119034982 * red + 0.6806995451 * green + 0.1073969566 * blue)
        let s = Self.cubeRoot(0.0883024619 * red + 0.2817188376 * green + 0.6299787005 * blue)
        self.init(l: 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                  a: 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                  b: 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// The nearest opaque 8-bit sRGB colour: each linear component clipped to 0–1, then encoded and rounded.
    package var sRGB: CardColor {
        let l = pow(self.l + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m = pow(self.l - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s = pow(self.l - 0.0894841775 * a - 1.2914855480 * b, 3)
        return CardColor(red: Self.encoded(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
                         green: Self.encoded(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
                         blue: Self.encoded(-0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s))
    }

    /// Euclidean distance, the ΔE of Oklab: about 0.02 is a just-noticeable difference.
    package func distance(to other: Oklab) -> Double {
        ((l - other.l) * (l - other.l) + (a - other.a) * (a - other.a) + (b - other.b) * (b - other.b)).squareRoot()
    }

    /// The cube root of `x`, 0 or within 1e-12...2 (a pixel's light is 0 or within 1e-5...1), within
    /// 4 ulp of libm's `cbrt` and faster: Halley's iteration from a first guess that divides the
    /// exponent by three. A placeholder takes three per pixel of the card.
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        var y = Double(bitPattern: x.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        for _ in 0..<3 {
            let cubed = y * y * y
            y = y * (cubed + 2 * x) / (2 * cubed + x)
        }
        return y
    }

    /// Linear light of each 8-bit sRGB value (IEC 61966-2-1).
    private static let linear: [Double] = (0...255).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light, clipped to 0–1, as the nearest 8-bit sRGB value.
    private static func encoded(_ linear: Double) -> UInt8 {
        let c = min(max(linear, 0), 1)
        let encoded = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }
}
