import Foundation
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// The behaviour every `ArtifactStoring` shares, run against each implementation.
@Suite("ArtifactStoring")
struct ArtifactStoreTests {
    enum Kind: String, CaseIterable, Sendable {
        case disk, memory

        /// Runs `body` with a new, empty store of this kind.
        func withStore(_ body: (any ArtifactStoring) throws -> Void) throws {
            switch self {
            case .disk:
                try withTemporaryDirectory { try body(DiskArtifactStore(root: $0.appendingPathComponent(".cardbake"))) }
            case .memory:
                try body(InMemoryArtifactStore())
            }
        }
    }

    static let key = Fingerprint(domain: "test").digest

    @Test("A stored blob comes back under the SHA-256 of its bytes", arguments: Kind.allCases)
    func blobRoundTrip(kind: Kind) throws {
        try kind.withStore { store in
            for data in [Data(), Data("card".utf8), Data(repeating: 7, count: 1 << 20)] {
                let digest = try store.storeBlob(data)
                #expect(digest == ContentDigest.sha256(data))
                #expect(store.blob(digest) == data)
            }
        }
    }

    @Test("An action result comes back under its key, and a new one replaces it", arguments: Kind.allCases)
    func actionResultRoundTrip(kind: Kind) throws {
        try kind.withStore { store in
            try store.storeActionResult(Data("first".utf8), for: Self.key)
            #expect(store.actionResult(for: Self.key) == Data("first".utf8))
            try store.storeActionResult(Data(), for: Self.key)
            #expect(store.actionResult(for: Self.key) == Data())
        }
    }

    @Test("Unknown keys and digests are misses, and the two areas are separate", arguments: Kind.allCases)
    func misses(kind: Kind) throws {
        try kind.withStore { store in
            #expect(store.actionResult(for: Self.key) == nil)
            #expect(store.blob(Self.key) == nil)
            let digest = try store.storeBlob(Data("blob".utf8))
            #expect(store.actionResult(for: digest) == nil)
            try store.storeActionResult(Data("record".utf8), for: Self.key)
            #expect(store.blob(Self.key) == nil)
        }
    }

    @Test("Storing the same blob twice keeps one intact copy", arguments: Kind.allCases)
    func storeTwice(kind: Kind) throws {
        try kind.withStore { store in
            let data = Data("same bytes".utf8)
            try #expect(store.storeBlob(data) == store.storeBlob(data))
            #expect(store.blob(ContentDigest.sha256(data)) == data)
        }
    }

    @Test("Many threads writing one key and one blob while others read: readers see a whole value or a miss",
          arguments: Kind.allCases)
    func concurrentWriters(kind: Kind) throws {
        try kind.withStore { store in
            let records = (0..<8).map { Data(repeating: UInt8($0), count: 1000 + $0) }
            let blob = Data(repeating: 0x42, count: 256 << 10)
            DispatchQueue.concurrentPerform(iterations: 200) { iteration in
                switch iteration % 4 {
                case 0:
                    #expect(throws: Never.self) {
                        try store.storeActionResult(records[iteration % records.count], for: Self.key)
                    }
                case 1:
                    #expect(throws: Never.self) { try #expect(store.storeBlob(blob) == ContentDigest.sha256(blob)) }
                case 2:
                    if let seen = store.actionResult(for: Self.key) { #expect(records.contains(seen)) }
                default:
                    if let seen = store.blob(ContentDigest.sha256(blob)) { #expect(seen == blob) }
                }
            }
            #expect(store.actionResult(for: Self.key).map(records.contains) == true)
            #expect(store.blob(ContentDigest.sha256(blob)) == blob)
        }
    }
}
