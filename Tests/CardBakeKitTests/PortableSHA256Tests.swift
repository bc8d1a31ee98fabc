import CardBakeKit
import Foundation
import Testing

@Suite("SHA-256 in Swift")
struct PortableSHA256Tests {
    /// FIPS 180-2's examples and NIST's one-block, two-block, empty and million-`a` messages.
    static let nistVectors: [(message: [UInt8], digest: String)] = [
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test("NIST's example messages hash to their published digests")
    func nist() {
        for (message, digest) in Self.nistVectors {
            #expect(PortableSHA256.hash(message).description == digest, "\(message.count) bytes")
            #expect(PortableSHA256.hash(Data(message)).description == digest, "\(message.count) bytes as Data")
        }
    }

    @Test("A message fed in pieces of any size hashes as it does whole")
    func pieces() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = PortableSHA256.hash(message)
        for size in [1, 3, 55, 56, 63, 64, 65, 128, 299] {
            var hasher = PortableSHA256()
            for start in stride(from: 0, to: message.count, by: size) {
                hasher.update(message[start..<min(start + size, message.count)])
            }
            #expect(hasher.finalize() == whole, "pieces of \(size)")
        }
        // A collection without contiguous storage goes the same way.
        #expect(PortableSHA256.hash(message.lazy.map { $0 }) == whole)
    }
}
