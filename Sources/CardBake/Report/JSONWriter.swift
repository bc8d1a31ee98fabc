/// Writes JSON text straight into bytes, laid out as `JSONEncoder` lays it out with `.prettyPrinted`
/// and `.withoutEscapingSlashes`: for documents too large for `JSONEncoder`'s speed, such as the
/// report of a 10,000-card build.
///
/// Members are written in the order given, so give them sorted for stable text; a nil optional is
/// left out, as `JSONEncoder` leaves it out.
///
///     var json = JSONWriter()
///     json.object { card in
///         card.member("id") { $0.string("toucan") }
///         card.member("index") { $0.number(3) }
///     }
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the container being written already has an element, so the next needs a comma.
    private var hasElements = false

    mutating func object(_ members: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), members)
    }

    /// A member of the object being written.
    mutating func member(_ key: String, _ value: (inout JSONWriter) -> Void) {
        element { writer in
            writer.string(key)
            writer.bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
            value(&writer)
        }
    }

    /// A member whose value is `value` written by `write`, left out when `value` is nil.
    mutating func member<Value>(_ key: String, ifPresent value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        guard let value else { return }
        member(key) { write(&$0, value) }
    }

    mutating func array<Items: Sequence>(_ items: Items, _ write: (inout JSONWriter, Items.Element) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]")) { writer in
            for item in items {
                writer.element { write(&$0, item) }
            }
        }
    }

    /// A string, with `"`, `\` and control characters escaped; everything else as its UTF-8.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A: bytes.append(contentsOf: Array(#"\n"#.utf8))
            case 0x0D: bytes.append(contentsOf: Array(#"\r"#.utf8))
            case 0x09: bytes.append(contentsOf: Array(#"\t"#.utf8))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An array of strings on one line, `null` for each nil: a record in a file a script reads. With
    /// `keyed`, an object of more such arrays by key follows the strings, as the array's last element.
    mutating func compactArray(_ items: [String?], keyed: [(key: String, items: [String?])] = []) {
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let item { string(item) } else { bytes.append(contentsOf: "null".utf8) }
        }
        if !keyed.isEmpty {
            bytes.append(contentsOf: ",{".utf8)
            for (index, record) in keyed.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(record.key)
                bytes.append(UInt8(ascii: ":"))
                compactArray(record.items)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number, in the shortest form that reads back as the same `Double`.
    mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSON has no infinities or NaN")
        bytes.append(contentsOf: value.description.utf8)
    }

    private mutating func element(_ write: (inout JSONWriter) -> Void) {
        if hasElements { bytes.append(UInt8(ascii: ",")) }
        newline()
        write(&self)
        hasElements = true
    }

    private mutating func container(open: UInt8, close: UInt8, _ elements: (inout JSONWriter) -> Void) {
        bytes.append(open)
        depth += 1
        hasElements = false
        elements(&self)
        depth -= 1
        if hasElements { newline() }
        bytes.append(close)
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}
