import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, written `#RRGGBB` or `#RRGGBBAA` in a catalog.
public struct CardColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Opacity from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (hex digits in either case); nil for anything else.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = hex.dropFirst()
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        let rgb = digits.count == 8 ? value >> 8 : value
        self.init(red: UInt8(truncatingIfNeeded: rgb >> 16),
                  green: UInt8(truncatingIfNeeded: rgb >> 8),
                  blue: UInt8(truncatingIfNeeded: rgb),
                  alpha: digits.count == 8 ? Double(value & 0xFF) / 255 : 1)
    }

    /// `#RRGGBB` when opaque, `#RRGGBBAA` otherwise (alpha rounded to 8 bits).
    public var description: String {
        let rgb = String(format: "#%02X%02X%02X", red, green, blue)
        return alpha >= 1 ? rgb : rgb + String(format: "%02X", Int((alpha * 255).rounded()))
    }

    public static let white = CardColor(red: 255, green: 255, blue: 255)
    public static let black = CardColor(red: 0, green: 0, blue: 0)
}

