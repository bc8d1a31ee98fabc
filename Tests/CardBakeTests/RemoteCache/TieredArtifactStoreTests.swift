import CardBakeCache
import CardBakeManifest
import Foundation
import Testing

@Suite("Remote cache tier")
struct TieredArtifactStoreTests {
    /// A machine: its own local store in front of the shared `remote`.
    struct Machine {
        let local = InMemoryArtifactStore()
        let warnings = Warnings()
        let store: TieredArtifactStore

        init(_ remote: InMemoryRemote, mode: RemoteCacheMode = .readwrite) {
            let warnings = warnings
            store = TieredArtifactStore(local: local, remote: RemoteCache(server: remote, mode: mode),
                                        warn: { warnings.add($0) })
        }
    }

    static let key = Fingerprint(domain: "tier test").digest
    static let bitmap = Data(repeating: 42, count: 5000)

    @Test("What one machine stores, another fetches from the remote, verified, into its local store")
    func sharedThroughRemote() async throws {
        let remote = InMemoryRemote()
        let first = Machine(remote)
        let digest = try await first.store.storeBlob(Self.bitmap)
        try await first.store.storeActionResult(Data("record".utf8), for: Self.key)
        let sent = await first.store.finish(within: .seconds(30))
        #expect(sent.uploads == 2)
        #expect(sent.uploadedBytes == Self.bitmap.count + 6 + 32)
        #expect(remote.objects["cas/\(digest)"] == Self.bitmap)

        let second = Machine(remote)
        #expect(await second.store.actionResult(for: Self.key) == Data("record".utf8))
        #expect(await second.store.containsBlob(digest))
        #expect(await second.local.blob(digest) == Self.bitmap)
        #expect(await second.local.actionResult(for: Self.key) == Data("record".utf8))
        let gets = remote.gets
        #expect(await second.store.blob(digest) == Self.bitmap)
        #expect(remote.gets == gets, "a blob fetched by containsBlob is read locally afterwards")
        let received = await second.store.finish(within: .seconds(30))
        #expect(received.hits == 2)
        #expect(received.downloadedBytes == Self.bitmap.count + 6 + 32)
        #expect(received.uploads == 0, "what was fetched is not uploaded again")
        #expect(second.warnings.all.isEmpty)
    }

    @Test("blobFile gives the local file, fetching a blob the local store lacks and refusing a forged one")
    func blobFile() async throws {
        try await withTemporaryDirectory { folder in
            let remote = InMemoryRemote()
            let digest = ContentDigest.sha256(Self.bitmap)
            let local = try DiskArtifactStore(root: folder)
            let store = TieredArtifactStore(local: local, remote: RemoteCache(server: remote, mode: .readwrite), warn: { _ in })
            #expect(await store.blobFile(digest) == nil)

            var forged = Self.bitmap
            forged[100] ^= 1
            remote.replace("cas/\(digest)", with: forged)
            #expect(await store.blobFile(digest) == nil)
            #expect(await local.blobFile(digest) == nil, "a forged blob was kept")

            remote.replace("cas/\(digest)", with: Self.bitmap)
            let path = try #require(await store.blobFile(digest))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.bitmap)
            _ = await store.finish(within: .seconds(30))
        }
    }

    @Test("A blob whose bytes do not hash to its name is refused with a warning, and not kept")
    func forgedBlob() async throws {
        let remote = InMemoryRemote()
        let digest = ContentDigest.sha256(Self.bitmap)
        var forged = Self.bitmap
        forged[100] ^= 1
        remote.replace("cas/\(digest)", with: forged)
        let machine = Machine(remote)
        #expect(await machine.store.containsBlob(digest) == false)
        #expect(await machine.store.blob(digest) == nil)
        #expect(await machine.local.blob(digest) == nil)
        #expect(machine.warnings.all.first?.contains("cas/\(digest)") == true)
        #expect(await machine.store.finish(within: .seconds(1)).refused == 2)
    }

    @Test("An action record that fails its checksum, or belongs to another key, is refused")
    func forgedRecord() async throws {
        let remote = InMemoryRemote()
        let other = Fingerprint(domain: "another").digest
        remote.replace("ac/\(Self.key)", with: Data("record".utf8).appendingChecksum(context: other.bytes))
        let machine = Machine(remote)
        #expect(await machine.store.actionResult(for: Self.key) == nil)
        #expect(await machine.local.actionResult(for: Self.key) == nil)
        remote.replace("ac/\(Self.key)", with: Data("short".utf8))
        #expect(await machine.store.actionResult(for: Self.key) == nil)
        #expect(machine.warnings.all.count == 2)
    }

    @Test("Read mode never uploads; write mode never fetches")
    func modes() async throws {
        let remote = InMemoryRemote()
        let reader = Machine(remote, mode: .read)
        let digest = try await reader.store.storeBlob(Self.bitmap)
        try await reader.store.storeActionResult(Data("record".utf8), for: Self.key)
        #expect(await reader.store.finish(within: .seconds(30)).uploads == 0)
        #expect(remote.puts == 0)
        #expect(await reader.local.blob(digest) == Self.bitmap, "the local cache keeps what a reader renders")

        let writer = Machine(remote, mode: .write)
        try await writer.store.storeBlob(Self.bitmap)
        _ = await writer.store.finish(within: .seconds(30))
        #expect(remote.puts == 1)
        let other = Machine(remote, mode: .write)
        #expect(await other.store.blob(digest) == nil)
        #expect(remote.gets == 0)
    }

    @Test("After three failures in a row the remote is not asked again, and that is said once")
    func givesUp() async throws {
        let remote = InMemoryRemote()
        remote.setFailing(true)
        let machine = Machine(remote)
        for index in 0..<10 {
            #expect(await machine.store.blob(ContentDigest.sha256(Data([UInt8(index)]))) == nil)
        }
        let digest = try await machine.store.storeBlob(Self.bitmap)
        #expect(await machine.store.blob(digest) == Self.bitmap, "the local store still serves")
        let traffic = await machine.store.finish(within: .seconds(30))
        #expect(remote.gets == 3)
        #expect(remote.puts == 0)
        #expect(traffic.disabled)
        #expect(traffic.failures == 3)
        #expect(machine.warnings.all.count == 1)
        #expect(machine.warnings.all.first?.contains("not used for the rest of this build") == true)
    }

    @Test("An outage (refused, unknown host, timed out, closed) gives the remote up at its first failure, said once")
    func outageGivesUpAtOnce() async throws {
        let remote = InMemoryRemote()
        remote.setFailing(true, outage: true)
        let machine = Machine(remote)
        for index in 0..<10 {
            #expect(await machine.store.blob(ContentDigest.sha256(Data([UInt8(index)]))) == nil)
        }
        try await machine.store.storeBlob(Self.bitmap)
        try await machine.store.storeActionResult(Data("record".utf8), for: Self.key)
        let traffic = await machine.store.finish(within: .seconds(30))
        #expect(remote.gets == 1)
        #expect(remote.puts == 0)
        #expect(traffic.disabled && traffic.failures == 1)
        #expect(machine.warnings.all.count == 1)
        #expect(machine.warnings.all.first?.contains("memory://remote is unavailable (down)") == true,
                "\(machine.warnings.all)")
    }

    @Test("A success between failures resets the count")
    func successResets() async throws {
        let remote = InMemoryRemote()
        let machine = Machine(remote)
        for round in 0..<3 {
            remote.setFailing(true)
            for index in 0..<2 { _ = await machine.store.blob(ContentDigest.sha256(Data([UInt8(round), UInt8(index)]))) }
            remote.setFailing(false)
            _ = await machine.store.blob(ContentDigest.sha256(Data([UInt8(round)])))
        }
        #expect(await machine.store.finish(within: .seconds(30)).disabled == false)
        #expect(machine.warnings.all.isEmpty)
    }
}
