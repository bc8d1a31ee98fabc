import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite struct JSONDocumentTests {
    private func parse(_ json: String) throws -> JSONValue {
        try JSONDocument.parse(Data(json.utf8))
    }

    @Test func parsesEveryKindWithPositions() throws {
        let value = try parse("""
        {"b": [true, false, null],
          "a": -1.5e2, "s": "x"}
        """)
        guard case .object(let members) = value.kind else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "s"])
        #expect(members.map(\.keyPosition) == [JSONPosition(line: 1, column: 2), JSONPosition(line: 2, column: 3),
                                                JSONPosition(line: 2, column: 16)])
        #expect(members[0].value.kind == .array([
            JSONValue(kind: .bool(true), position: JSONPosition(line: 1, column: 8)),
            JSONValue(kind: .bool(false), position: JSONPosition(line: 1, column: 14)),
            JSONValue(kind: .null, position: JSONPosition(line: 1, column: 21)),
        ]))
        #expect(members[1].value == JSONValue(kind: .number(-150), position: JSONPosition(line: 2, column: 8)))
        #expect(members[2].value.kind == .string("x"))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("7", 7), ("-12", -12), ("0.1", 0.1), ("1.5e3", 1500), ("1E-2", 0.01),
        ("2e+2", 200), ("999999999999999", 999_999_999_999_999), ("12345678901234567890", 1.2345678901234567e19),
        ("1e-400", 0),
    ])
    func parsesNumbers(json: String, expected: Double) throws {
        #expect(try parse(json).kind == .number(expected))
    }

    @Test(arguments: [
        ("01", 1, "leading zeros are not allowed in numbers"),
        ("-01", 1, "leading zeros are not allowed in numbers"),
        ("-", 2, "unexpected end of file; expected a digit after '-'"),
        ("-a", 2, "expected a digit after '-'"),
        ("1.", 3, "unexpected end of file; expected a digit after the decimal point"),
        ("1.e5", 3, "expected a digit after the decimal point"),
        ("1e", 3, "unexpected end of file; expected a digit in the exponent"),
        (".5", 1, "expected a value (an object, array, string, number, true, false or null)"),
        ("+1", 1, "expected a value (an object, array, string, number, true, false or null)"),
        ("NaN", 1, "invalid literal \"NaN\"; allowed words are true, false and null"),
        ("-Infinity", 2, "expected a digit after '-'"),
        ("Infinity", 1, "invalid literal \"Infinity\"; allowed words are true, false and null"),
        ("True", 1, "invalid literal \"True\"; allowed words are true, false and null"),
        ("nul", 1, "invalid literal \"nul\"; allowed words are true, false and null"),
        ("1e400", 1, "number 1e400 is too large for a 64-bit floating-point value"),
        ("0x10", 2, "expected the end of the file after the top-level value"),
    ])
    func rejectsBadNumbersAndLiterals(json: String, column: Int, reason: String) {
        let error = CatalogFixture.syntaxError(json)
        #expect(error == JSONSyntaxError(position: JSONPosition(line: 1, column: column), reason: reason))
    }

    @Test func decodesEscapes() throws {
        let json = #""q\" b\\ s\/ \b\f\n\r\t \u00e9 \u00E9 \ud83e\udd9C \u0000 end""#
        #expect(try parse(json).kind == .string("q\" b\\ s/ \u{8}\u{C}\n\r\t é é 🦜 \u{0} end"))
    }

    @Test func keepsRawUTF8Exactly() throws {
        let text = "e\u{301} é 漢字 שלום 👩‍👩‍👧 &<>"
        guard case .string(let parsed) = try parse("\"\(text)\"").kind else {
            Issue.record("not a string")
            return
        }
        #expect(Array(parsed.utf8) == Array(text.utf8))
    }

    @Test(arguments: [
        (#""a\x""#, 3, #"invalid escape: '\' followed by 'x'; allowed escapes are \", \\, \/, \b, \f, \n, \r, \t and \u followed by 4 hexadecimal digits"#),
        (#""\u12G4""#, 6, #"expected 4 hexadecimal digits after \u"#),
        (#""\ud800""#, 2, #"lone surrogate \uD800: a high surrogate must be followed by a \u escape of a low surrogate (DC00–DFFF)"#),
        (#""\ud800\u0041""#, 2, #"lone surrogate \uD800: a high surrogate must be followed by a \u escape of a low surrogate (DC00–DFFF)"#),
        (#""\udc00""#, 2, #"lone surrogate \uDC00: a low surrogate must follow a high surrogate (D800–DBFF)"#),
        ("\"a\tb\"", 3, #"unescaped control character U+0009 (TAB) in a string; write it as an escape such as \n, \t or \u0009"#),
        ("\"a\u{0}b\"", 3, #"unescaped control character U+0000 (NUL) in a string; write it as an escape such as \n, \t or \u0000"#),
        ("\"ab", 4, #"unexpected end of file; expected '"' to end the string"#),
        ("'a'", 1, "expected a value (an object, array, string, number, true, false or null)"),
    ])
    func rejectsBadStrings(json: String, column: Int, reason: String) {
        let error = CatalogFixture.syntaxError(json)
        #expect(error == JSONSyntaxError(position: JSONPosition(line: 1, column: column), reason: reason))
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], "invalid UTF-8 (byte 0xFF)"),
        ([0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 (byte 0xC0)"),        // overlong NUL
        ([0x22, 0xE0, 0x80, 0x80, 0x22], "invalid UTF-8 (byte 0xE0)"),  // overlong
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 (byte 0xED)"),  // encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 (byte 0xF4)"), // above U+10FFFF
        ([0x22, 0xE2, 0x82, 0x22], "invalid UTF-8 (byte 0xE2)"),        // truncated
        ([0x22, 0x80, 0x22], "invalid UTF-8 (byte 0x80)"),              // lone continuation
        ([0xFF], "invalid UTF-8 (byte 0xFF)"),
    ] as [([UInt8], String)])
    func rejectsInvalidUTF8(bytes: [UInt8], reason: String) {
        let error = CatalogFixture.syntaxError(bytes)
        #expect(error?.reason == reason)
        #expect(error?.position == JSONPosition(line: 1, column: bytes.count == 1 ? 1 : 2))
    }

    @Test(arguments: [
        ("[1, 2,]", 1, 6, "trailing comma before ']'; JSON allows no comma after the last item"),
        ("{\"a\": 1,\n}", 1, 8, "trailing comma before '}'; JSON allows no comma after the last item"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after an object member"),
        ("{\"a\" 1}", 1, 6, "expected ':' after an object key"),
        ("{a: 1}", 1, 2, "expected an object key in double quotes"),
        ("{1: 1}", 1, 2, "expected an object key in double quotes"),
        ("[1] // done", 1, 5, "comments are not allowed in JSON"),
        ("/* x */ []", 1, 1, "comments are not allowed in JSON"),
        ("[1] [2]", 1, 5, "expected the end of the file after the top-level value"),
        ("{} x", 1, 4, "expected the end of the file after the top-level value"),
        ("", 1, 1, "unexpected end of file; expected a value (an object, array, string, number, true, false or null)"),
        (" \n ", 2, 2, "unexpected end of file; expected a value (an object, array, string, number, true, false or null)"),
        ("[1,", 1, 4, "unexpected end of file; expected a value (an object, array, string, number, true, false or null)"),
        ("{\"a\": [1}", 1, 9, "expected ',' or ']' after an array element"),
    ])
    func rejectsBadStructure(json: String, line: Int, column: Int, reason: String) {
        let error = CatalogFixture.syntaxError(json)
        #expect(error == JSONSyntaxError(position: JSONPosition(line: line, column: column), reason: reason))
    }

    @Test func columnsCountUnicodeScalarsAndLinesEndAtLineFeed() {
        // "é" (2 bytes), "漢" (3 bytes) and "🦜" (4 bytes) are one column each; CR LF is one line break.
        let error = CatalogFixture.syntaxError("{\r\n\"é漢🦜\": 1 x}")
        #expect(error?.position == JSONPosition(line: 2, column: 10))
    }

    @Test func skipsByteOrderMark() throws {
        let value = try JSONDocument.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)))
        #expect(value.position == JSONPosition(line: 1, column: 1))
        #expect(CatalogFixture.syntaxError([0xEF, 0xBB, 0xBF] + Array("x".utf8))?.position == JSONPosition(line: 1, column: 1))
    }

    @Test func keepsDuplicateKeysForTheCaller() throws {
        let value = try parse(#"{"a": 1, "a": 2}"#)
        guard case .object(let members) = value.kind else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["a", "a"])
        #expect(value["a"]?.kind == .number(1))
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = JSONDocument.maximumDepth
        var value = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 1
        while case .array(let elements) = value.kind, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test(arguments: [JSONDocument.maximumDepth + 1, 1_000_000])
    func rejectsDeeperNestingWithoutCrashing(depth: Int) {
        // Each `{"a":[` opens two levels, so level 513 is the `{` of the 257th repetition.
        let json = String(repeating: #"{"a":["#, count: depth / 2 + 1)
        let error = CatalogFixture.syntaxError(json)
        #expect(error?.reason == "arrays and objects nest more than 512 levels deep")
        #expect(error?.position == JSONPosition(line: 1, column: 256 * 6 + 1))
    }
}
