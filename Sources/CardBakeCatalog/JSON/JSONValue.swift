/// Where something starts in a JSON document: 1-based line and column.
///
/// Lines end at LF (a CR before it is ordinary whitespace). Columns count Unicode scalars, not bytes
/// and not grapheme clusters, so `é` written as one scalar is one column and a flag emoji is two.
package struct JSONPosition: Sendable, Hashable, Comparable {
    package var line: Int
    package var column: Int

    package static func < (a: JSONPosition, b: JSONPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One value of a parsed JSON document, with the position of its first character.
package struct JSONValue: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// Always finite.
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in document order; duplicate keys are kept (the parser does not judge them).
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    package struct Member: Sendable, Equatable {
        var key: String
        var keyPosition: JSONPosition
        var value: JSONValue
    }

    package var kind: Kind
    package var position: JSONPosition

    package var isNull: Bool {
        if case .null = kind { true } else { false }
    }

    /// The value of the first member named `key`, if this is an object that has one.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }
}
