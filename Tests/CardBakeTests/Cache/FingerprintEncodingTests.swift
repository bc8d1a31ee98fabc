import Foundation
@testable import CardBakeCache
@testable import CardBakeManifest
import Testing

@Suite("Fingerprint of an Encodable value")
struct FingerprintEncodingTests {
    static func key(_ value: some Encodable) throws -> ContentDigest {
        try Fingerprint(domain: "test", encoding: value).digest
    }

    struct Sample: Encodable {
        var count: UInt8 = 3
        var label = "a"
        var tags = ["t"]
        var weight: Float? = 0.5
        var digest = ContentDigest.sha256(Data("sample".utf8))
    }

    @Test("A value enters as the documented fields")
    func documentedFields() throws {
        var expected = Fingerprint(domain: "test")
        expected.add("{", ".count")
        expected.add("-", 3)
        expected.add("}", String?.none)
        expected.add(".label", "a")
        expected.add("{", ".tags")
        expected.add("[", String?.none)
        expected.add("-", "t")
        expected.add("}", String?.none)
        expected.add("{", ".weight")
        expected.add("-", 0.5)
        expected.add("}", String?.none)
        expected.add(".digest", Sample().digest)
        #expect(try Self.key(Sample()) == expected.digest)
    }

    /// Any JSON value, so that the test can write values of every shape.
    indirect enum JSON: Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
        ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
        case string(String), number(Int), array([JSON]), object([String: JSON]), null

        init(stringLiteral value: String) { self = .string(value) }
        init(integerLiteral value: Int) { self = .number(value) }
        init(arrayLiteral elements: JSON...) { self = .array(elements) }
        init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(uniqueKeysWithValues: elements)) }
        init(nilLiteral: ()) { self = .null }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            case .null: try container.encodeNil()
            }
        }
    }

    @Test("Values that JSON tells apart have different keys: containers are delimited and typed")
    func injective() throws {
        let values: [JSON] = [
            [], [:], nil, "", "1", 1, [nil], [[]], [[:]],
            [["a"], []], [[], ["a"]], [["a", "b"]], [["a"], ["b"]],
            ["-": "x"], ["x"], ["": "x"], ["a": nil], ["a": []], ["a": [[]]],
            ["a": ["b": 1], "c": 2], ["a": ["b": 1, "c": 2]],
        ]
        let keys = try values.map { try Self.key($0) }
        #expect(Set(keys).count == values.count)
    }

    @Test("A dictionary enters in key order, whatever order it iterates in")
    func dictionaryOrder() throws {
        let pairs = (0..<40).map { ("key \($0)", $0) }
        let small = Dictionary(uniqueKeysWithValues: pairs)
        var large = [String: Int](minimumCapacity: 4096)
        for (key, value) in pairs.reversed() {
            large[key] = value
        }
        try #require(Array(small.keys) != Array(large.keys))
        #expect(try Self.key(small) == Self.key(large))
        #expect(try Self.key(small) != Self.key(small.merging(["key 0": -1]) { $1 }))
    }

    enum Shape: Encodable {
        case circle(radius: Int)
        case square(side: Int)
    }

    struct Label: Encodable {
        var text = "l"
    }

    /// Writes `shape` and `sides` through nested containers and `label` through a super encoder.
    struct Nested: Encodable {
        var radius = 2
        var sides = [4]
        var label = Label()

        enum CodingKeys: CodingKey { case shape, sides, label, after }
        enum ShapeKeys: CodingKey { case circle }
        enum RadiusKeys: CodingKey { case radius }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var shape = container.nestedContainer(keyedBy: ShapeKeys.self, forKey: .shape)
            var circle = shape.nestedContainer(keyedBy: RadiusKeys.self, forKey: .circle)
            try circle.encode(radius, forKey: .radius)
            var list = container.nestedUnkeyedContainer(forKey: .sides)
            try list.encode(contentsOf: sides)
            try label.encode(to: container.superEncoder(forKey: .label))
            try container.encode(true, forKey: .after)
        }
    }

    /// The same values as ``Nested``, each encoded as a value of its own.
    struct Direct: Encodable {
        var shape = Shape.circle(radius: 2)
        var sides = [4]
        var label = Label()
        var after = true
    }

    @Test("Nested containers and super encoders enter as nested values do, and end where their parent goes on")
    func nestedContainers() throws {
        #expect(try Self.key(Nested()) == Self.key(Direct()))
        #expect(try Self.key(Shape.circle(radius: 1)) != Self.key(Shape.square(side: 1)))
        #expect(try Self.key([Shape.circle(radius: 1)]) != Self.key([Shape.circle(radius: 1), Shape.circle(radius: 1)]))
    }

    /// Records the coding path it is encoded at.
    struct Probe: Encodable {
        final class Log { var paths: [[String]] = [] }
        let log: Log

        func encode(to encoder: any Encoder) throws {
            log.paths.append(encoder.codingPath.map(\.stringValue))
        }
    }

    @Test("Each value is encoded at its coding path")
    func codingPaths() throws {
        let log = Probe.Log()
        _ = try Self.key(["a": [Probe(log: log), Probe(log: log)]])
        #expect(log.paths == [["a", "Index 0"], ["a", "Index 1"]])
    }
}
