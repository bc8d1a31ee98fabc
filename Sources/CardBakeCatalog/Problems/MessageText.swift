/// Renders values inside human-readable problem messages.
package enum MessageText {
    /// `text` in double quotes with JSON escapes, shortened with `…` after `limit` Unicode scalars,
    /// so that strings with quotes, control characters or megabytes of text stay readable.
    package static func quoted(_ text: String, limit: Int = 60) -> String {
        var result = "\""
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if offset == limit {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\\u" + hex4(scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A number as a catalog author would write it: `10000`, `-2`, `0.5`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// What an integer setting allows: `an integer from 1 to 4`.
    package static func integer(in range: ClosedRange<Int>) -> String {
        "an integer from \(range.lowerBound) to \(range.upperBound)"
    }

    /// A value outside what `allowed` describes: `9 is out of range; allowed: an integer from 1 to 4.`
    package static func outOfRange(_ value: Double, allowed: String) -> String {
        "\(number(value)) is out of range; allowed: \(allowed)."
    }

    /// A single character: `'x'` for printable ASCII, `U+0000 (NUL)` for control characters,
    /// `'é' (U+00E9)` for anything else.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        if let name = controlCharacterName(scalar) {
            return "U+\(hex4(scalar.value)) (\(name))"
        }
        return scalar.isASCII ? "'\(scalar)'" : "'\(scalar)' (U+\(hex4(scalar.value)))"
    }

    /// The name of a C0 control character or DEL, nil for any other scalar.
    package static func controlCharacterName(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0..<0x20: c0Names[Int(scalar.value)]
        case 0x7F: "DEL"
        default: nil
        }
    }

    /// At least four uppercase hexadecimal digits, as in `U+000A`.
    package static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static let c0Names = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR", "SO", "SI",
        "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
    ]
}
