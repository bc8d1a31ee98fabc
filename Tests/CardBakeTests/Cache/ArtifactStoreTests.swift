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
        func withStore(_ body: (any ArtifactStoring) async throws -> Void) async throws {
            switch self {
            case .disk:
                try await withTemporaryDirectory { try await body(DiskArtifactStore(root: $0.appendingPathComponent(".cardbake"))) }
            case .memory:
                try await body(InMemoryArtifactStore())
            }
        }
    }

    static let key = Fingerprint(domain: "test").digest

    @Test("A stored blob comes back under the SHA-256 of its bytes", arguments: Kind.allCases)
    func blobRoundTrip(kind: Kind) async throws {
        try await kind.withStore { store in
            for data in [Data(), Data("card".utf8), Data(repeating: 7, count: 1 << 20)] {
                let digest = try await store.storeBlob(data)
                #expect(digest == ContentDigest.sha256(data))
                #expect(await store.blob(digest) == data)
            }
        }
    }

    @Test("An action result comes back under its key, and a new one replaces it", arguments: Kind.allCases)
    func actionResultRoundTrip(kind: Kind) async throws {
        try await kind.withStore { store in
            try await store.storeActionResult(Data("first".utf8), for: Self.key)
            #expect(await store.actionResult(for: Self.key) == Data("first".utf8))
            try await store.storeActionResult(Data(), for: Self.key)
            #expect(await store.actionResult(for: Self.key) == Data())
        }
    }

    @Test("Unknown keys and digests are misses, and the two areas are separate", arguments: Kind.allCases)
    func misses(kind: Kind) async throws {
        try await kind.withStore { store in
            #expect(await store.actionResult(for: Self.key) == nil)
            #expect(await store.blob(Self.key) == nil)
            let digest = try await store.storeBlob(Data("blob".utf8))
            #expect(await store.actionResult(for: digest) == nil)
            try await store.storeActionResult(Data("record".utf8), for: Self.key)
            #expect(await store.blob(Self.key) == nil)
        }
    }

    @Test("Storing the same blob twice keeps one intact copy", arguments: Kind.allCases)
    func storeTwice(kind: Kind) async throws {
        try await kind.withStore { store in
            let data = Data("same bytes".utf8)
            let first = try await store.storeBlob(data)
            #expect(try await store.storeBlob(data) == first)
            #expect(await store.blob(ContentDigest.sha256(data)) == data)
        }
    }

    @Test("Many tasks writing one key and one blob while others read: readers see a whole value or a miss",
          arguments: Kind.allCases)
    func concurrentWriters(kind: Kind) async throws {
        try await kind.withStore { store in
            let records = (0..<8).map { Data(repeating: UInt8($0), count: 1000 + $0) }
            let blob = Data(repeating: 0x42, count: 256 << 10)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for iteration in 0..<200 {
                    group.addTask {
                        switch iteration % 4 {
                        case 0:
                            try await store.storeActionResult(records[iteration % records.count], for: Self.key)
                        case 1:
                            #expect(try await store.storeBlob(blob) == ContentDigest.sha256(blob))
                        case 2:
                            if let seen = await store.actionResult(for: Self.key) { #expect(records.contains(seen)) }
                        default:
                            if let seen = await store.blob(ContentDigest.sha256(blob)) { #expect(seen == blob) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await store.actionResult(for: Self.key).map(records.contains) == true)
            #expect(await store.blob(ContentDigest.sha256(blob)) == blob)
        }
    }

    @Test("containsBlob answers for an intact blob only", arguments: Kind.allCases)
    func containsBlob(kind: Kind) async throws {
        try await kind.withStore { store in
            let digest = try await store.storeBlob(Data("present".utf8))
            #expect(await store.containsBlob(digest))
            #expect(await !store.containsBlob(Self.key))
        }
    }
}
