import CardBakeManifest

/// A value that can be a field of a ``Fingerprint``.
///
/// The library's conformances and their type tags: `String` (`s`, UTF-8 bytes), `Int` (`i`,
/// 8 bytes big-endian), `Double` (`d`, shortest round-trip text such as `320.0` or `1e-05`,
/// with -0 written as `0.0` and every NaN as `nan`), `Bool` (`b`, one byte 0 or 1), ``ContentDigest``
/// and ``Fingerprint`` (`h`, the 32 digest bytes, so a nested fingerprint counts as its digest),
/// and `Optional` of any of these (`n` and no bytes for nil, the wrapped value otherwise).
public protocol FingerprintValue: Sendable {
    /// The value's type tag and canonical bytes.
    var fingerprintComponent: Fingerprint.Component { get }
}

extension String: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        Fingerprint.Component(tag: UInt8(ascii: "s"), bytes: Array(utf8))
    }
}

extension Int: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(Int64(self))
        return Fingerprint.Component(tag: UInt8(ascii: "i"), bytes: bytes)
    }
}

extension Double: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        let text = isNaN ? "nan" : self == 0 ? "0.0" : description
        return Fingerprint.Component(tag: UInt8(ascii: "d"), bytes: Array(text.utf8))
    }
}

extension Bool: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        Fingerprint.Component(tag: UInt8(ascii: "b"), bytes: [self ? 1 : 0])
    }
}

extension ContentDigest: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        Fingerprint.Component(tag: UInt8(ascii: "h"), bytes: bytes)
    }
}

extension Fingerprint: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        digest.fingerprintComponent
    }
}

extension Optional: FingerprintValue where Wrapped: FingerprintValue {
    public var fingerprintComponent: Fingerprint.Component {
        self?.fingerprintComponent ?? Fingerprint.Component(tag: UInt8(ascii: "n"), bytes: [])
    }
}
