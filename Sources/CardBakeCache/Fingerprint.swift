import CardBakeManifest

/// Builds a cache key: the complete, stable identity of one processing step.
///
/// Add every parameter that can change the step's result, then read ``digest``. The key is
/// the SHA-256 of an injective encoding, so two builders give the same key only when they
/// received the same domain, version and fields, with the same names, types and values, in
/// the same order:
///
///     encoding = text("cardbake-fingerprint-1") ‖ text(domain) ‖ int64(version) ‖ field…
///     field    = text(name) ‖ tag ‖ length-prefixed value
///     text(s)  = int64(UTF-8 length of s) ‖ UTF-8 bytes of s
///
/// where `int64` is 8 bytes big-endian and `tag` is one byte naming the value's type (see
/// ``FingerprintValue``). Strings are hashed as their exact UTF-8 bytes, without Unicode
/// normalisation, because a renderer sees those bytes.
///
///     var key = Fingerprint(domain: "card-image", version: 2)
///     key.add("title", card.title)
///     key.add("scale", 2)
///     key.add("image", imageDigest)
///     let digest = key.digest
///
/// The encoding is hashed as it grows, so a key of a large value (a whole manifest) takes little memory.
public struct Fingerprint: Sendable {
    /// The encoding not yet given to `hasher`.
    private var encoding: [UInt8] = []
    private var hasher = ContentDigest.Hasher()
    private static let hashingBlock = 1 << 16

    /// Starts a key of one kind.
    ///
    /// - Parameters:
    ///   - domain: What kind of key this is, e.g. `card-image`; keys of different domains never collide.
    ///   - version: The step's version salt: raise it whenever the step's result changes for the
    ///     same parameters (a rendering fix, a new encoder), so that old cache entries stop matching.
    public init(domain: String, version: Int = 1) {
        append(text: "cardbake-fingerprint-1")
        append(text: domain)
        append(integer: UInt64(bitPattern: Int64(version)))
    }

    /// Adds one named parameter. Names need not be unique, but order matters.
    public mutating func add(_ name: String, _ value: some FingerprintValue) {
        let component = value.fingerprintComponent
        append(text: name)
        encoding.append(component.tag)
        append(integer: UInt64(component.bytes.count))
        encoding.append(contentsOf: component.bytes)
        if encoding.count >= Self.hashingBlock {
            hasher.update(encoding)
            encoding.removeAll(keepingCapacity: true)
        }
    }

    /// The key: SHA-256 of everything added so far.
    public var digest: ContentDigest {
        var hasher = hasher
        hasher.update(encoding)
        return hasher.digest
    }

    private mutating func append(text: String) {
        append(integer: UInt64(text.utf8.count))
        encoding.append(contentsOf: text.utf8)
    }

    private mutating func append(integer: UInt64) {
        encoding.appendBigEndian(integer)
    }
}

extension Fingerprint {
    /// The canonical encoding of one ``FingerprintValue``: a one-byte type tag and the value's bytes.
    ///
    /// Only this library creates components, so type tags cannot collide. A type of your own
    /// conforms to ``FingerprintValue`` by returning the component of a value it is made of,
    /// typically of a nested ``Fingerprint`` holding its fields.
    public struct Component: Sendable, Equatable {
        let tag: UInt8
        let bytes: [UInt8]
    }
}
