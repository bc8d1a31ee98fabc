/// A value that adds to a ``Fingerprint`` every field of its own that a key must depend on: the one
/// place that lists them, in a fixed order (a field that is Fingerprintable too with `add(_:_:)`).
public protocol Fingerprintable {
    func fingerprint(into key: inout Fingerprint)
}

extension Fingerprint {
    /// Adds `value`'s fields, between a field `{` holding `name` and a field `}`, so that the fields
    /// of nested values never run together.
    public mutating func add(_ name: String, _ value: some Fingerprintable) {
        beginNested(name)
        value.fingerprint(into: &self)
        endNested()
    }

    mutating func beginNested(_ name: String) {
        add("{", name)
    }

    mutating func endNested() {
        add("}", String?.none)
    }
}

extension Optional: Fingerprintable where Wrapped: Fingerprintable {
    /// Nothing for nil; the wrapped value nested as `some` otherwise.
    public func fingerprint(into key: inout Fingerprint) {
        if let self {
            key.add("some", self)
        }
    }
}
