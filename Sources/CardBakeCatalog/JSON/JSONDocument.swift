import Foundation

/// The first syntax error in a JSON document.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    package var position: JSONPosition
    /// What is wrong, without a final period, e.g. `expected ',' or '}' after an object member`.
    package var reason: String
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes that keeps each value's position.
///
/// Beyond the RFC it rejects what a careless parser would let through: invalid UTF-8, lone
/// surrogates in `\u` escapes (an error, not U+FFFD), numbers that do not fit a finite `Double`,
/// and nesting deeper than ``maximumDepth``. A UTF-8 byte order mark at the start is skipped.
/// Duplicate keys are kept in the tree so that the caller can report them with a path.
package struct JSONDocument {
    /// Arrays and objects may nest this deep; deeper input is an error rather than a stack overflow.
    package static let maximumDepth = 512

    /// Parses a whole document: exactly one value, optionally surrounded by whitespace.
    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONValue in
                var parser = JSONDocument(bytes: raw.bindMemory(to: UInt8.self))
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    /// Byte offset where the current line starts.
    private var lineStart = 0
    /// UTF-8 continuation bytes between `lineStart` and `index`, so that columns count scalars.
    private var continuationBytesOnLine = 0
    /// Reused buffer for strings that contain escapes.
    private var scratch: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var position: JSONPosition {
        JSONPosition(line: line, column: index - lineStart - continuationBytesOnLine + 1)
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    // MARK: Values

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw unexpected("expected the end of the file after the top-level value")
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        let expectation = "expected a value (an object, array, string, number, true, false or null)"
        guard let byte = current else { throw unexpected(expectation) }
        let start = position
        let kind: JSONValue.Kind
        switch byte {
        case UInt8(ascii: "\""):
            kind = .string(try parseString())
        case UInt8(ascii: "{"):
            kind = .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            kind = .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            kind = .number(try parseNumber())
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            kind = try parseLiteral()
        default:
            throw unexpected(expectation)
        }
        return JSONValue(kind: kind, position: start)
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [JSONValue.Member] {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        var members: [JSONValue.Member] = []
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            guard current == UInt8(ascii: "\"") else {
                throw unexpected("expected an object key in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw unexpected("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            members.append(JSONValue.Member(key: key, keyPosition: keyPosition, value: try parseValue(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                try skipComma(before: UInt8(ascii: "}"))
            case UInt8(ascii: "}"):
                index += 1
                return members
            default:
                throw unexpected("expected ',' or '}' after an object member")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                try skipComma(before: UInt8(ascii: "]"))
            case UInt8(ascii: "]"):
                index += 1
                return elements
            default:
                throw unexpected("expected ',' or ']' after an array element")
            }
        }
    }

    /// Steps over a separating comma and the whitespace after it; a closing bracket next is a trailing comma.
    private mutating func skipComma(before closing: UInt8) throws(JSONSyntaxError) {
        let comma = position
        index += 1
        skipWhitespace()
        if current == closing {
            throw JSONSyntaxError(position: comma, reason: "trailing comma before '\(Character(Unicode.Scalar(closing)))'; JSON allows no comma after the last item")
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        if depth > Self.maximumDepth {
            throw JSONSyntaxError(position: position, reason: "arrays and objects nest more than \(Self.maximumDepth) levels deep")
        }
    }

    /// `true`, `false` or `null`; any other word (`NaN`, `Infinity`, `undefined`, `True`) is an error.
    private mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue.Kind {
        let start = position
        let first = index
        while let byte = current, byte.isASCIILetterOrDigit {
            index += 1
        }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            throw JSONSyntaxError(position: start, reason: "invalid literal \(MessageText.quoted(word)); allowed words are true, false and null")
        }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        let first = index
        let isNegative = current == UInt8(ascii: "-")
        if isNegative { index += 1 }
        switch current {
        case UInt8(ascii: "0"):
            index += 1
            if current?.isASCIIDigit == true {
                throw JSONSyntaxError(position: start, reason: "leading zeros are not allowed in numbers")
            }
        case let byte? where byte.isASCIIDigit:
            skipDigits()
        default:
            throw unexpected("expected a digit after '-'")
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard current?.isASCIIDigit == true else { throw unexpected("expected a digit after the decimal point") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard current?.isASCIIDigit == true else { throw unexpected("expected a digit in the exponent") }
            skipDigits()
        }
        let text = UnsafeBufferPointer(rebasing: bytes[first..<index])
        let digitCount = text.count - (isNegative ? 1 : 0)
        if isInteger, digitCount <= 15 {
            // Exact in a Double (below 2^53), and much faster than the general conversion.
            var magnitude = 0
            for byte in text.dropFirst(isNegative ? 1 : 0) {
                magnitude = magnitude * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return isNegative ? -Double(magnitude) : Double(magnitude)
        }
        let string = String(decoding: text, as: UTF8.self)
        guard let value = Double(string), value.isFinite else {
            throw JSONSyntaxError(position: start, reason: "number \(string) is too large for a 64-bit floating-point value")
        }
        return value
    }

    private mutating func skipDigits() {
        while current?.isASCIIDigit == true {
            index += 1
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote and steps past the closing quote.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let first = index
        var segmentStart = index
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                guard hasEscapes else {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]))
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                if !hasEscapes {
                    hasEscapes = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]))
                try parseEscape()
                segmentStart = index
            case 0..<0x20:
                let scalar = Unicode.Scalar(byte)
                throw JSONSyntaxError(position: position, reason: "unescaped control character \(MessageText.describe(scalar)) in a string; write it as an escape such as \\n, \\t or \\u\(MessageText.hex4(scalar.value))")
            case 0x80...:
                guard let length = utf8SequenceLength(at: index) else {
                    throw JSONSyntaxError(position: position, reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))")
                }
                index += length
                continuationBytesOnLine += length - 1
            default:
                index += 1
            }
        }
        throw unexpected("expected '\"' to end the string")
    }

    /// Decodes one escape sequence starting at its backslash, appending its UTF-8 to `scratch`.
    private mutating func parseEscape() throws(JSONSyntaxError) {
        let start = position
        index += 1
        let letter = current
        index += 1
        switch letter {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape(start: start)
            UTF8.encode(scalar) { scratch.append($0) }
        default:
            index -= 1
            let what = letter == nil ? "the end of the file" : describeCharacter(at: index)
            throw JSONSyntaxError(position: start, reason: "invalid escape: '\\' followed by \(what); allowed escapes are \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u followed by 4 hexadecimal digits")
        }
    }

    /// The scalar of a `\uXXXX` escape (already past the `u`), combining a surrogate pair.
    private mutating func parseUnicodeEscape(start: JSONPosition) throws(JSONSyntaxError) -> Unicode.Scalar {
        let unit = try parseHex4()
        switch unit {
        case 0xD800...0xDBFF:
            let hasLowEscape = index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
            if hasLowEscape {
                index += 2
                let low = try parseHex4()
                if (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                }
            }
            throw JSONSyntaxError(position: start, reason: "lone surrogate \\u\(MessageText.hex4(unit)): a high surrogate must be followed by a \\u escape of a low surrogate (DC00–DFFF)")
        case 0xDC00...0xDFFF:
            throw JSONSyntaxError(position: start, reason: "lone surrogate \\u\(MessageText.hex4(unit)): a low surrogate must follow a high surrogate (D800–DBFF)")
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = byte.hexDigitValue else {
                throw unexpected("expected 4 hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Length of the well-formed UTF-8 sequence (2–4 bytes) starting at `start`, or nil.
    /// Rejects overlong forms, surrogates and scalars above U+10FFFF, as the Unicode standard requires.
    private func utf8SequenceLength(at start: Int) -> Int? {
        func continues(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            start + offset < bytes.count && range.contains(bytes[start + offset])
        }
        switch bytes[start] {
        case 0xC2...0xDF:
            return continues(1) ? 2 : nil
        case 0xE0:
            return continues(1, 0xA0...0xBF) && continues(2) ? 3 : nil
        case 0xED:
            return continues(1, 0x80...0x9F) && continues(2) ? 3 : nil
        case 0xE1...0xEF:
            return continues(1) && continues(2) ? 3 : nil
        case 0xF0:
            return continues(1, 0x90...0xBF) && continues(2) && continues(3) ? 4 : nil
        case 0xF4:
            return continues(1, 0x80...0x8F) && continues(2) && continues(3) ? 4 : nil
        case 0xF1...0xF3:
            return continues(1) && continues(2) && continues(3) ? 4 : nil
        default:
            return nil
        }
    }

    // MARK: Whitespace and errors

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
                continuationBytesOnLine = 0
            default:
                return
            }
        }
    }

    /// An error at the current position, which does not hold what `expectation` describes.
    private func unexpected(_ expectation: String) -> JSONSyntaxError {
        let reason = switch current {
        case nil: "unexpected end of file; \(expectation)"
        case UInt8(ascii: "/"): "comments are not allowed in JSON"
        case let byte? where byte >= 0x80 && utf8SequenceLength(at: index) == nil:
            "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))"
        default: expectation
        }
        return JSONSyntaxError(position: position, reason: reason)
    }

    /// The character at `offset` for a message, e.g. `'x'`, `'é'` or `U+0001 (SOH)`.
    private func describeCharacter(at offset: Int) -> String {
        let length = bytes[offset] < 0x80 ? 1 : utf8SequenceLength(at: offset) ?? 1
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        return MessageText.describe(text.unicodeScalars.first!)
    }
}

private extension UInt8 {
    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }

    var isASCIILetterOrDigit: Bool {
        isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20)
    }

    var hexDigitValue: UInt32? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(self - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(self - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(self - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
