import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("ContentDigest")
struct DigestTests {
    @Test("SHA-256 matches the FIPS 180-2 test vectors")
    func knownVectors() {
        #expect(ContentDigest.sha256(Data("abc".utf8)).description
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentDigest.sha256(Data()).description
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("Hex text round-trips, in either case, and nothing else parses")
    func hexText() throws {
        let digest = ContentDigest.sha256(Data("abc".utf8))
        #expect(ContentDigest(hex: digest.description) == digest)
        #expect(ContentDigest(hex: digest.description.uppercased()) == digest)
        for bad in ["", String(digest.description.dropLast()), digest.description + "0",
                    "g" + digest.description.dropFirst(), " " + digest.description.dropFirst()] {
            #expect(ContentDigest(hex: bad) == nil, "\(bad)")
        }
        #expect(ContentDigest(bytes: digest.bytes) == digest)
        #expect(ContentDigest(bytes: digest.bytes.dropLast()) == nil)
    }

    @Test("Codable as a JSON string of 64 lowercase hex digits; bad text is a decoding error")
    func codable() throws {
        let digest = ContentDigest.sha256(Data("abc".utf8))
        let json = try JSONEncoder().encode([digest])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(digest)\"]")
        #expect(try JSONDecoder().decode([ContentDigest].self, from: json) == [digest])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ContentDigest].self, from: Data("[\"abc\"]".utf8))
        }
    }

    @Test("Digests order as their bytes and their text do")
    func ordering() {
        let digests = (0..<50).map { ContentDigest.sha256(Data("\($0)".utf8)) }
        #expect(digests.sorted().map(\.description) == digests.map(\.description).sorted())
        let sortedBytes = digests.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(digests.sorted().map(\.bytes) == sortedBytes)
        #expect(Set(digests).count == 50)
    }

    @Test("A file is hashed in chunks to the same digest as its bytes", arguments: [0, 1, 1 << 20, (5 << 19) + 7])
    func fileDigest(size: Int) throws {
        try withTemporaryDirectory { directory in
            // Given
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
            let file = directory.appendingPathComponent("blob")
            try bytes.write(to: file)
            // When / Then
            #expect(try ContentDigest.sha256(ofFileAt: file) == ContentDigest.sha256(bytes))
        }
    }

    @Test("Hashing a missing file throws an error naming the path and the cause")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("missing.png")
            let error = try #require(throws: FileSystemError.self) { try ContentDigest.sha256(ofFileAt: file) }
            #expect(error == .cannotRead(path: file.path, errno: ENOENT))
            #expect(error.description == "Could not read \"\(file.path)\": No such file or directory.")
        }
    }
}
