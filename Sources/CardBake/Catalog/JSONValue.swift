/// Where something starts in a JSON document: 1-based line and column.
///
/// Lines end at LF (a CR before it is ordinary whitespace). Columns count Unicode scalars, not bytes
/// and not grapheme clusters, so `é` written as one scalar is one column and a flag emoji is two.
struct JSONPosition: Sendable, Hashable, Comparable {
    var line: Int
    var column: Int

    static func < (a: JSONPosition, b: JSONPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One value of a parsed JSON document, with the position of its first character.
struct JSONValue: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
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
    struct Member: Sendable, Equatable {
        var key: String
        var keyPosition: JSONPosition
        var value: JSONValue
    }

    var kind: Kind
    var position: JSONPosition

    var isNull: Bool {
        if case .null = kind { true } else { false }
    }

    /// The value of the first member named `key`, if this is an object that has one.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }
}
