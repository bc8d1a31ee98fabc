import Foundation
import Glibc
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("DiskArtifactStore")
struct DiskArtifactStoreTests {
    static let key = Fingerprint(domain: "test").digest

    /// Runs `body` with a new store in a temporary directory.
    func withStore(_ body: (DiskArtifactStore) throws -> Void) throws {
        try withTemporaryDirectory { try body(DiskArtifactStore(root: $0.appendingPathComponent(".cardbake"))) }
    }

    @Test("Lays entries out as VERSION, ac/<2 hex>/<hex> and cas/<2 hex>/<hex>")
    func layout() throws {
        try withStore { store in
            let digest = try store.storeBlob(Data("blob".utf8))
            try store.storeActionResult(Data("record".utf8), for: Self.key)
            let hex = digest.description, keyHex = Self.key.description
            let root = store.root.path
            #expect(try String(contentsOfFile: root + "/VERSION", encoding: .utf8) == "cardbake-cache 1\n")
            let blob = try Data(contentsOf: URL(fileURLWithPath: "\(root)/cas/\(hex.prefix(2))/\(hex)"))
            #expect(blob == Data("blob".utf8))
            let entry = try Data(contentsOf: URL(fileURLWithPath: "\(root)/ac/\(keyHex.prefix(2))/\(keyHex)"))
            #expect(entry.count == "record".utf8.count + 32)
            #expect(entry.starts(with: Data("record".utf8)))
        }
    }

    @Test("Entries survive reopening the store")
    func reopen() throws {
        try withStore { store in
            let digest = try store.storeBlob(Data("blob".utf8))
            try store.storeActionResult(Data("record".utf8), for: Self.key)
            let reopened = try DiskArtifactStore(root: store.root)
            #expect(reopened.blob(digest) == Data("blob".utf8))
            #expect(reopened.actionResult(for: Self.key) == Data("record".utf8))
        }
    }

    @Test("A flipped byte in a blob is a miss, and the entry is removed", arguments: [0, 5, 1023])
    func damagedBlob(offset: Int) throws {
        try withStore { store in
            // Given
            let digest = try store.storeBlob(Data(repeating: 1, count: 1024))
            try flipByte(at: offset, in: store.blobURL(for: digest))
            // When / Then
            #expect(store.blob(digest) == nil)
            #expect(!FileManager.default.fileExists(atPath: store.blobURL(for: digest).path))
            // And storing it again repairs it.
            try store.storeBlob(Data(repeating: 1, count: 1024))
            #expect(store.blob(digest) == Data(repeating: 1, count: 1024))
        }
    }

    @Test("A blob found intact, then damaged before it is read, is still a miss")
    func damagedAfterContainsBlob() throws {
        try withStore { store in
            let data = Data(repeating: 7, count: 4096)
            let digest = try store.storeBlob(data)
            #expect(store.containsBlob(digest))
            #expect(store.blob(digest) == data)
            try flipByte(at: 100, in: store.blobURL(for: digest))
            #expect(store.blob(digest) == nil)
        }
    }

    @Test("blobFile gives the path of an intact blob's file, and nil for a blob the store lacks")
    func blobFile() throws {
        try withStore { store in
            let data = Data(repeating: 3, count: 2048)
            let digest = try store.storeBlob(data)
            let path = try #require(store.blobFile(digest))
            #expect(path == store.blobURL(for: digest).path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
            // Asked again, with nothing noted, it is hashed again and still found intact.
            #expect(store.blobFile(digest) == path)
            #expect(store.blobFile(ContentDigest.sha256(Data("absent".utf8))) == nil)
        }
    }

    @Test("A blob rewritten in place through a hard link, mtime put back, is hashed again: a miss, and removed",
          arguments: [false, true])
    func blobFileRewrittenThroughLink(sameSize: Bool) throws {
        try withStore { store in
            // Given a blob found intact (so its status is noted), hard-linked elsewhere, and rewritten
            // in place through that link with its modification time put back
            let data = Data(repeating: 9, count: 4096)
            let digest = try store.storeBlob(data)
            #expect(store.containsBlob(digest))
            let blobPath = store.blobURL(for: digest).path
            let linked = store.root.deletingLastPathComponent().appendingPathComponent("linked.jpg")
            #expect(link(blobPath, linked.path) == 0)
            var before = stat()
            #expect(stat(blobPath, &before) == 0)
            let handle = try FileHandle(forWritingTo: linked)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(repeating: 8, count: sameSize ? 4096 : 100))
            try handle.close()
            try setModificationTime(of: linked, to: Int64(before.st_mtim.tv_sec) * 1_000_000_000 + Int64(before.st_mtim.tv_nsec))

            // When / Then
            #expect(store.blobFile(digest) == nil)
            #expect(!FileManager.default.fileExists(atPath: blobPath))
        }
    }

    @Test("A flipped byte in an action result, record or checksum, is a miss, and the entry is removed",
          arguments: [0, 9, 10, 41])
    func damagedActionResult(offset: Int) throws {
        try withStore { store in
            // Given: a 10-byte record and its 32-byte checksum.
            try store.storeActionResult(Data("0123456789".utf8), for: Self.key)
            try flipByte(at: offset, in: store.actionResultURL(for: Self.key))
            // When / Then
            #expect(store.actionResult(for: Self.key) == nil)
            #expect(!FileManager.default.fileExists(atPath: store.actionResultURL(for: Self.key).path))
        }
    }

    @Test("A truncated entry is a miss", arguments: [0, 1, 31, 32, 41])
    func truncatedEntries(length: Int) throws {
        try withStore { store in
            let digest = try store.storeBlob(Data(repeating: 9, count: 100))
            try store.storeActionResult(Data("0123456789".utf8), for: Self.key)
            for url in [store.blobURL(for: digest), store.actionResultURL(for: Self.key)] {
                try Data(contentsOf: url).prefix(length).write(to: url)
            }
            #expect(store.blob(digest) == nil)
            #expect(store.actionResult(for: Self.key) == nil)
        }
    }

    @Test("An action result copied under another key is a miss: the checksum binds it to its key")
    func actionResultBoundToKey() throws {
        try withStore { store in
            let otherKey = Fingerprint(domain: "other").digest
            try store.storeActionResult(Data("record".utf8), for: Self.key)
            try AtomicFileWriter.write(Data(contentsOf: store.actionResultURL(for: Self.key)),
                                       to: store.actionResultURL(for: otherKey))
            #expect(store.actionResult(for: otherKey) == nil)
            #expect(store.actionResult(for: Self.key) == Data("record".utf8))
        }
    }

    @Test("An unreadable entry is a miss, not an error")
    func unreadableEntry() throws {
        try withStore { store in
            // A directory where the entry should be cannot be read as a file.
            try FileManager.default.createDirectory(at: store.actionResultURL(for: Self.key),
                                                    withIntermediateDirectories: true)
            #expect(store.actionResult(for: Self.key) == nil)
        }
    }

    @Test("A failing write throws a FileSystemError naming the path and leaves no temporary file")
    func failingWrite() throws {
        try withStore { store in
            // Given: a file where the blob's shard directory belongs.
            let data = Data("blob".utf8)
            let shard = store.blobURL(for: ContentDigest.sha256(data)).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: shard.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try writeFile("in the way", to: shard)
            // When
            let error = try #require(throws: FileSystemError.self) { try store.storeBlob(data) }
            // Then
            #expect(error == .cannotWrite(path: store.blobURL(for: ContentDigest.sha256(data)).path, errno: ENOTDIR))
            #expect(error.description.hasSuffix(": Not a directory."))
            #expect(temporaryFiles(under: store.root).isEmpty)
        }
    }

    @Test("A read-only store throws on write and leaves no temporary file",
          .enabled(if: getuid() != 0, "root may write anywhere"))
    func readOnlyStore() throws {
        try withStore { store in
            chmod(store.root.path, 0o555)
            defer { chmod(store.root.path, 0o755) }
            #expect(throws: FileSystemError.self) { try store.storeBlob(Data("blob".utf8)) }
            #expect(temporaryFiles(under: store.root).isEmpty)
        }
    }

    @Test("A VERSION naming another layout is refused with advice")
    func incompatibleVersion() throws {
        try withTemporaryDirectory { directory in
            try AtomicFileWriter.write(Data("cardbake-cache 0\n".utf8), to: directory.appendingPathComponent("VERSION"))
            let error = try #require(throws: CacheError.self) { try DiskArtifactStore(root: directory) }
            #expect(error == .incompatibleStore(path: directory.path, found: "cardbake-cache 0"))
            #expect(error.description.contains("delete the directory"))
        }
    }

    @Test("A root that is a file is reported")
    func rootIsAFile() throws {
        try withTemporaryDirectory { directory in
            let root = directory.appendingPathComponent("file")
            try writeFile("x", to: root)
            let error = try #require(throws: FileSystemError.self) { try DiskArtifactStore(root: root) }
            #expect(error == .cannotRead(path: root.path + "/VERSION", errno: ENOTDIR))
        }
    }
}
