import Foundation

/// Reads typed, range-checked values out of a JSON tree and reports every problem it meets to a ``ProblemLog``.
///
/// Each reading method returns nil when the value is absent (nothing reported) or unusable (problem
/// reported), so schema code reads as
/// `if let width = reader.number(fields["cardWidth"], in: 1...2048) { style.cardWidth = width }`.
package struct SchemaReader {
    /// A JSON value together with its path.
    package struct Node {
        var value: JSONValue
        var path: JSONPath
    }

    /// The members of an object, looked up by key; a repeated key yields its first occurrence.
    package struct Fields {
        fileprivate let path: JSONPath
        fileprivate let members: [JSONValue.Member]

        subscript(key: String) -> Node? {
            members.first { $0.key == key }.map { Node(value: $0.value, path: path.appending(key: key)) }
        }
    }

    package let log: ProblemLog
    package let paths: CatalogPathResolver
    /// Attached to every problem reported; set while reading a card whose id is valid.
    package var cardID: String?

    /// A reader of the same paths that reports to a log of its own, for values read again after
    /// their problems were reported.
    package var silenced: SchemaReader { SchemaReader(log: ProblemLog(), paths: paths) }

    package func report(_ message: String, at node: Node) {
        report(message, at: node.path, position: node.value.position)
    }

    package func report(_ message: String, at path: JSONPath, position: JSONPosition) {
        log.report(message, at: path, position: position, cardID: cardID)
    }

    /// Reports that `node` is not of the expected type, e.g. `expected a number from 1 to 2048, found the string "320".`
    package func reportMismatch(_ node: Node, expected: String) {
        report("expected \(expected), found \(Self.describe(node.value)).", at: node)
    }

    /// The members of an object, after reporting its unknown, repeated and missing keys.
    /// An unknown key is reported at each occurrence as unknown, a known key from its second occurrence as repeated.
    /// - Parameter orNull: the caller also accepts `null` (and handled it); only changes the wording of a mismatch.
    package func object(_ node: Node, keys: [String], required: [String] = [], orNull: Bool = false) -> Fields? {
        guard case .object(let members) = node.value.kind else {
            let expected = "an object with keys \(keys.joined(separator: ", "))"
            reportMismatch(node, expected: orNull ? "null or \(expected)" : expected)
            return nil
        }
        var seen = [Bool](repeating: false, count: keys.count)
        for member in members {
            let path = node.path.appending(key: member.key)
            guard let keyIndex = keys.firstIndex(of: member.key) else {
                report("unknown key \(MessageText.quoted(member.key)); allowed keys: \(keys.joined(separator: ", ")).",
                       at: path, position: member.keyPosition)
                continue
            }
            if seen[keyIndex] {
                report("duplicate key \(MessageText.quoted(member.key)); each key may appear only once in an object.",
                       at: path, position: member.keyPosition)
            }
            seen[keyIndex] = true
        }
        for key in required where !seen[keys.firstIndex(of: key)!] {
            report("missing required key \(MessageText.quoted(key)); required keys: \(required.joined(separator: ", ")).", at: node)
        }
        return Fields(path: node.path, members: members)
    }

    /// The elements of an array; `expected` describes the whole array for a mismatch.
    package func array(_ node: Node, expected: String) -> [Node]? {
        guard case .array(let elements) = node.value.kind else {
            reportMismatch(node, expected: expected)
            return nil
        }
        return elements.enumerated().map { Node(value: $1, path: node.path.appending(index: $0)) }
    }

    /// A finite number within `range`.
    /// - Parameter orNull: the caller also accepts `null` (and handled it); only changes the wording of a mismatch.
    package func number(_ node: Node?, in range: ClosedRange<Double>, orNull: Bool = false) -> Double? {
        checkedNumber(node, allowed: "a number from \(MessageText.number(range.lowerBound)) to \(MessageText.number(range.upperBound))",
                      orNull: orNull, inRange: range.contains)
    }

    /// A whole number within `range`; `2.0` counts as 2, `2.5` does not.
    /// - Parameter orNull: the caller also accepts `null` (and handled it); only changes the wording of a mismatch.
    package func integer(_ node: Node?, in range: ClosedRange<Int>, orNull: Bool = false) -> Int? {
        let allowed = { MessageText.integer(in: range) }
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        guard let node, let value = checkedNumber(node, allowed: allowed(), orNull: orNull, inRange: bounds.contains) else {
            return nil
        }
        guard value == value.rounded() else {
            report("\(MessageText.number(value)) is not a whole number; allowed: \(allowed()).", at: node)
            return nil
        }
        return Int(value)
    }

    private func checkedNumber(_ node: Node?, allowed: @autoclosure () -> String, orNull: Bool = false,
                               inRange: (Double) -> Bool) -> Double? {
        guard let node else { return nil }
        guard case .number(let value) = node.value.kind else {
            reportMismatch(node, expected: orNull ? "null or \(allowed())" : allowed())
            return nil
        }
        guard inRange(value) else {
            report(MessageText.outOfRange(value, allowed: allowed()), at: node)
            return nil
        }
        return value
    }

    /// Any string; `expected` describes it for a mismatch.
    package func string(_ node: Node?, expected: @autoclosure () -> String) -> String? {
        guard let node else { return nil }
        guard case .string(let string) = node.value.kind else {
            reportMismatch(node, expected: expected())
            return nil
        }
        return string
    }

    /// A string that follows `rule`.
    package func text(_ node: Node?, rule: TextRule) -> String? {
        guard let node, let text = string(node, expected: rule.allowed) else { return nil }
        if let problem = rule.problem(with: text) {
            report(problem, at: node)
            return nil
        }
        return text
    }

    /// One of the raw values of `Choice`, e.g. `"png"`.
    package func choice<Choice: RawRepresentable<String> & CaseIterable>(_ node: Node?, of _: Choice.Type) -> Choice? {
        let allowed = { "one of " + Choice.allCases.map { MessageText.quoted($0.rawValue) }.joined(separator: ", ") }
        guard let node, let name = string(node, expected: allowed()) else { return nil }
        guard let choice = Choice(rawValue: name) else {
            report("\(MessageText.quoted(name)) is not supported; allowed: \(allowed()).", at: node)
            return nil
        }
        return choice
    }

    /// `true` or `false`.
    package func boolean(_ node: Node?) -> Bool? {
        guard let node else { return nil }
        guard case .bool(let value) = node.value.kind else {
            reportMismatch(node, expected: "true or false")
            return nil
        }
        return value
    }

    /// A colour written `#RRGGBB` or `#RRGGBBAA`.
    package func color(_ node: Node?) -> CardColor? {
        let allowed = "a colour string \"#RRGGBB\" or \"#RRGGBBAA\" of hexadecimal digits"
        guard let node, let hex = string(node, expected: allowed) else { return nil }
        guard let color = CardColor(hex: hex) else {
            report("\(MessageText.quoted(hex)) is not a colour; allowed: \(allowed).", at: node)
            return nil
        }
        return color
    }

    /// A value that `null` removes: `.some(nil)` for `null`, `.some(value)` when `read` accepts the
    /// node, nil when the node is absent or `read` refused it (and reported why).
    package func removable<Value>(_ node: Node?, _ read: (Node) -> Value?) -> Value?? {
        guard let node else { return nil }
        if node.value.isNull { return .some(nil) }
        return read(node).map { .some($0) }
    }

    /// A file path, resolved by ``paths``. Whether the file exists is not checked.
    /// - Parameter orNull: the caller also accepts `null` (and handled it); only changes the wording of a mismatch.
    package func filePath(_ node: Node?, orNull: Bool = false) -> URL? {
        let allowed = "a non-empty file path, absolute or relative to the catalog's folder, without NUL characters"
        guard let node, let path = string(node, expected: orNull ? "null or \(allowed)" : allowed) else { return nil }
        guard !path.isEmpty, !path.utf8.contains(0) else {
            report("\(path.isEmpty ? "the path is empty" : "the path contains a NUL character"); allowed: \(allowed).", at: node)
            return nil
        }
        return paths.resolve(path)
    }

    /// What a value is, for a mismatch: `null`, `true`, `the number 5`, `the string "5"`, `an array`, `an object`.
    private static func describe(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .number(let number): "the number \(MessageText.number(number))"
        case .string(let string): "the string \(MessageText.quoted(string))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
