import CardBakeManifest

extension Fingerprint {
    /// A key of everything `value` encodes, in order, so that no field can be left out.
    ///
    /// A keyed value enters as a field named `.` and its key, an element of an unkeyed container or a
    /// single value as a field named `-`. Values that are a ``FingerprintValue`` (String, Int, Double,
    /// Bool, ``ContentDigest``) enter as such; any other value is nested between a field `{` holding its
    /// name and a field `}`, and an unkeyed container starts with a field `[`, so that values of
    /// different shapes never run together. Other integers enter as `Int`, `Float` as `Double`.
    /// Dictionaries with `String` keys enter in key order; a `Set` or another dictionary enters in its
    /// iteration order, which varies from run to run.
    ///
    /// Throws what `value`'s `encode(to:)` throws (nothing, for a synthesized conformance). Containers
    /// must be written in order, as synthesized conformances do.
    public init(domain: String, version: Int = 1, encoding value: some Encodable) throws {
        let sink = Sink(Fingerprint(domain: domain, version: version))
        try FingerprintEncoder(sink: sink, level: 0, codingPath: []).encodeContents(of: value)
        sink.resume(0)
        self = sink.fingerprint
    }
}

/// The fingerprint being written, and the nested values begun in it and not yet ended.
private final class Sink {
    var fingerprint: Fingerprint
    /// Levels of the open values, outermost (the whole value, 0) first; levels only grow.
    private var open = [0]
    private var newestLevel = 0

    init(_ fingerprint: Fingerprint) {
        self.fingerprint = fingerprint
    }

    /// Ends the values nested in the open value at `level`, before a field of that value.
    func resume(_ level: Int) {
        while let innermost = open.last, innermost > level {
            fingerprint.endNested()
            open.removeLast()
        }
        precondition(open.last == level, "A container was written after a value encoded after it.")
    }

    /// Begins a value named `name` nested in the value at `level`; returns the new value's level.
    func begin(_ name: String, in level: Int) -> Int {
        resume(level)
        fingerprint.beginNested(name)
        newestLevel += 1
        open.append(newestLevel)
        return newestLevel
    }

    func add(_ name: String, _ value: some FingerprintValue, in level: Int) {
        resume(level)
        fingerprint.add(name, value)
    }
}

/// Encodes one value (at `level`) into the sink; it is also that value's single-value container.
private struct FingerprintEncoder: Encoder, SingleValueEncodingContainer {
    let sink: Sink
    let level: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.add("[", String?.none, in: level)
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() {
        sink.add("-", String?.none, in: level)
    }

    /// Where every integer and `Float` ends up: a keyed or unkeyed one is nested as a single value.
    func encode<T: Encodable>(_ value: T) throws {
        if let value = value as? any BinaryInteger {
            sink.add("-", Int(truncatingIfNeeded: value), in: level)
        } else if let value = value as? Float {
            sink.add("-", Double(value), in: level)
        } else {
            try encode(value, as: "-", at: nil)
        }
    }

    /// Adds `value` as the field `name`, or nested under that name unless it is a ``FingerprintValue``;
    /// `key` is where it sits in this value, nil for a single value.
    func encode<T: Encodable>(_ value: T, as name: String, at key: (any CodingKey)?) throws {
        if let value = value as? any FingerprintValue {
            sink.add(name, value, in: level)
        } else {
            try nested(name, at: key).encodeContents(of: value)
        }
    }

    /// Encodes `value` as this encoder's value.
    func encodeContents(of value: some Encodable) throws {
        if let dictionary = value as? any StringKeyedDictionary {
            try dictionary.encodeSorted(to: self)
        } else {
            try value.encode(to: self)
        }
    }

    /// The encoder of a value named `name` nested at `key` (nil: at this value's own path).
    func nested(_ name: String, at key: (any CodingKey)?) -> FingerprintEncoder {
        FingerprintEncoder(sink: sink, level: sink.begin(name, in: level),
                           codingPath: key.map { codingPath + [$0] } ?? codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FingerprintEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil(forKey key: Key) {
        add(String?.none, forKey: key)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, as: Self.name(key), at: key)
    }

    // The types synthesized conformances encode most, without the generic path's casts.
    func encode(_ value: String, forKey key: Key) { add(value, forKey: key) }
    func encode(_ value: Int, forKey key: Key) { add(value, forKey: key) }
    func encode(_ value: Double, forKey key: Key) { add(value, forKey: key) }
    func encode(_ value: Bool, forKey key: Key) { add(value, forKey: key) }

    private func add(_ value: some FingerprintValue, forKey key: Key) {
        encoder.sink.add(Self.name(key), value, in: encoder.level)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                               forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.nested(Self.name(key), at: key).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.nested(Self.name(key), at: key).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        encoder.nested(".super", at: AnyKey("super"))
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nested(Self.name(key), at: key)
    }

    private static func name(_ key: Key) -> String { "." + key.stringValue }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FingerprintEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: FingerprintEncoder) {
        self.encoder = encoder
    }

    mutating func encodeNil() {
        encoder.encodeNil()
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, as: "-", at: AnyKey(index: count))
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        superEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        defer { count += 1 }
        return encoder.nested("-", at: AnyKey(index: count))
    }
}

private struct AnyKey: CodingKey {
    private let string: String
    let intValue: Int?
    var stringValue: String { intValue.map { "Index \($0)" } ?? string }

    init(_ string: String) {
        self.string = string
        intValue = nil
    }

    init(index: Int) {
        string = ""
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// A dictionary with `String` keys, which its own `encode(to:)` writes in iteration order.
private protocol StringKeyedDictionary {
    func encodeSorted(to encoder: FingerprintEncoder) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    fileprivate func encodeSorted(to encoder: FingerprintEncoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in sorted(by: { $0.key < $1.key }) {
            try container.encode(value, forKey: AnyKey(key))
        }
    }
}
