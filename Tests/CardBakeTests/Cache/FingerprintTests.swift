import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("Fingerprint")
struct FingerprintTests {
    /// One value of every kind, in a fixed order.
    static func sample() -> Fingerprint {
        var fingerprint = Fingerprint(domain: "card-image")
        fingerprint.add("title", "Keel-billed Toucan")
        fingerprint.add("scale", 2)
        fingerprint.add("width", 320.0)
        fingerprint.add("image", ContentDigest.sha256(Data("toucan".utf8)))
        fingerprint.add("shadow", nil as Double?)
        fingerprint.add("bold", true)
        return fingerprint
    }

    @Test("The key of a fixed input never changes (this hex was computed from the documented encoding)")
    func goldenKey() {
        #expect(Self.sample().digest.description == "3bbdbfe6199b4523c2a1152a088e9823ac64d6f241b85ce80d63026bd60f614f")
    }

    @Test("The same inputs give the same key")
    func deterministic() {
        #expect(Self.sample().digest == Self.sample().digest)
    }

    /// A named way to change one thing in the sample.
    struct Change: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let build: @Sendable () -> Fingerprint
    }

    /// A fingerprint of `fields`, each given as name and value, in order.
    static func fingerprint(domain: String = "card-image", version: Int = 1,
                            _ fields: [(String, any FingerprintValue)]) -> Fingerprint {
        var fingerprint = Fingerprint(domain: domain, version: version)
        for (name, value) in fields {
            fingerprint.add(name, value)
        }
        return fingerprint
    }

    static let sampleFields: [(String, any FingerprintValue)] = [
        ("title", "Keel-billed Toucan"), ("scale", 2), ("width", 320.0),
        ("image", ContentDigest.sha256(Data("toucan".utf8))), ("shadow", nil as Double?), ("bold", true),
    ]

    static let changes: [Change] = {
        var changes = [
            Change(testDescription: "domain") { fingerprint(domain: "card-imagf", sampleFields) },
            Change(testDescription: "version") { fingerprint(version: 2, sampleFields) },
            Change(testDescription: "a field dropped") { fingerprint(sampleFields.dropLast()) },
            Change(testDescription: "a field repeated") { fingerprint(sampleFields + [sampleFields[5]]) },
            Change(testDescription: "two fields swapped") {
                var fields = sampleFields
                fields.swapAt(1, 2)
                return fingerprint(fields)
            },
        ]
        let otherValues: [any FingerprintValue] = [
            "Keel-billed toucan", 3, 320.5, ContentDigest.sha256(Data("toucam".utf8)), 0.0, false,
        ]
        for index in sampleFields.indices {
            changes.append(Change(testDescription: "value of \(sampleFields[index].0)") {
                var fields = sampleFields
                fields[index].1 = otherValues[index]
                return fingerprint(fields)
            })
            changes.append(Change(testDescription: "name of \(sampleFields[index].0)") {
                var fields = sampleFields
                fields[index].0 += "_"
                return fingerprint(fields)
            })
        }
        return changes
    }()

    @Test("Changing any one thing changes the key", arguments: changes)
    func anyChangeChangesTheKey(change: Change) {
        #expect(Self.fingerprint(Self.sampleFields).digest == Self.sample().digest)
        #expect(change.build().digest != Self.sample().digest)
    }

    @Test("The boundary between a name and its value, or between fields, cannot move")
    func unambiguousBoundaries() {
        #expect(Self.fingerprint([("ab", "c")]).digest != Self.fingerprint([("a", "bc")]).digest)
        #expect(Self.fingerprint([("a", "b"), ("c", "d")]).digest != Self.fingerprint([("a", "bc"), ("", "d")]).digest)
        #expect(Self.fingerprint([("a", "")]).digest != Self.fingerprint([]).digest)
        #expect(Fingerprint(domain: "ab").digest != Fingerprint(domain: "a").digest)
    }

    @Test("String, Int, Double, Bool, nil and ContentDigest values of the “same” text all differ")
    func typesAreTagged() {
        let values: [any FingerprintValue] = ["2", 2, 2.0, "2.0", "", nil as String?, nil as Int?, "nan", Double.nan,
                                              true, 1, "true", ContentDigest.sha256(Data())]
        let keys = values.map { Self.fingerprint([("x", $0)]).digest }
        // Nil is one marker whatever the wrapped type.
        #expect(keys[5] == keys[6])
        #expect(Set(keys).count == values.count - 1)
    }

    @Test("Doubles are written canonically: shortest round-trip text, -0 as 0, one NaN")
    func canonicalDoubles() {
        func text(_ value: Double) -> String { String(decoding: value.fingerprintComponent.bytes, as: UTF8.self) }
        #expect(text(320) == "320.0")
        #expect(text(0.1) == "0.1")
        #expect(text(1e-5) == "1e-05")
        #expect(text(-0.0) == "0.0")
        #expect(text(-.nan) == "nan")
        #expect(text(-.infinity) == "-inf")
        #expect(Self.fingerprint([("x", -0.0)]).digest == Self.fingerprint([("x", 0.0)]).digest)
        #expect(Self.fingerprint([("x", 0.1 + 0.2)]).digest != Self.fingerprint([("x", 0.3)]).digest)
    }

    @Test("A nested fingerprint counts as its digest, and any change inside it changes the outer key")
    func nesting() {
        var shadow = Fingerprint(domain: "shadow")
        shadow.add("radius", 3.0)
        var changedShadow = Fingerprint(domain: "shadow")
        changedShadow.add("radius", 3.5)

        #expect(Self.fingerprint([("shadow", shadow)]).digest == Self.fingerprint([("shadow", shadow.digest)]).digest)
        #expect(Self.fingerprint([("shadow", shadow)]).digest != Self.fingerprint([("shadow", changedShadow)]).digest)
        let wrapped: Fingerprint? = shadow
        #expect(Self.fingerprint([("shadow", wrapped)]).digest == Self.fingerprint([("shadow", shadow)]).digest)
    }

    /// Fields of its own, for nesting.
    struct Fields: Fingerprintable {
        var fields: [(String, Int)]

        func fingerprint(into key: inout Fingerprint) {
            for (name, value) in fields {
                key.add(name, value)
            }
        }
    }

    @Test("A Fingerprintable value's fields lie between a field { holding its name and a field }")
    func fingerprintable() {
        var nested = Fingerprint(domain: "test")
        nested.add("inner", Fields(fields: [("a", 1)]))
        var expected = Fingerprint(domain: "test")
        expected.add("{", "inner")
        expected.add("a", 1)
        expected.add("}", String?.none)
        #expect(nested.digest == expected.digest)
    }

    @Test("A field cannot move into or out of a nested value, and nil differs from a value with no fields")
    func nestedBoundaries() {
        func key(_ inner: Fields?, then fields: [(String, Int)] = []) -> ContentDigest {
            var key = Fingerprint(domain: "test")
            key.add("inner", inner)
            Fields(fields: fields).fingerprint(into: &key)
            return key.digest
        }
        #expect(key(Fields(fields: [("a", 1), ("b", 2)])) != key(Fields(fields: [("a", 1)]), then: [("b", 2)]))
        #expect(key(nil) != key(Fields(fields: [])))
    }
}
