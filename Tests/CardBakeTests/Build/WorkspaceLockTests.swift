import Foundation
import Glibc
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("WorkspaceLock")
struct WorkspaceLockTests {
    /// Locks `folder` exclusively without waiting, or throws LockTimeout.
    func tryLock(_ folder: URL) throws -> DirectoryLock? {
        try DirectoryLock.acquire(folder, mode: .exclusive, creating: false, timeout: .zero,
                                  cancellation: Cancellation(), waiting: { _ in })
    }

    func request(in directory: URL) -> BuildRequest {
        BuildRequest(catalog: directory.appendingPathComponent("catalog.json"),
                     output: directory.appendingPathComponent("Output"),
                     cache: directory.appendingPathComponent(".cardbake"), lockTimeout: .zero)
    }

    @Test("A build's locks make and hold both folders until released")
    func buildLocks() throws {
        try withTemporaryDirectory { directory in
            // Given
            let request = request(in: directory)

            // When
            let lock = try WorkspaceLock(building: request, cancellation: Cancellation(), events: { _ in })

            // Then
            #expect(throws: LockTimeout.self) { try tryLock(request.output) }
            #expect(throws: LockTimeout.self) { try tryLock(try #require(request.cache)) }
            for folder in [request.output, try #require(request.cache)] {
                try Data().write(to: folder.appendingPathComponent("kept"))
            }
            lock.release()
            #expect(try tryLock(request.output) != nil)
            #expect(try tryLock(try #require(request.cache)) != nil)
        }
    }

    @Test("Folders a build made and left empty are removed on release, parents too; a folder with a file stays")
    func emptyFoldersRemoved() throws {
        try withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("a/b/Output")
            let cache = directory.appendingPathComponent("a/cache")
            let lock = try WorkspaceLock(folders: [output, cache], mode: .exclusive, creating: true, timeout: .zero,
                                         cancellation: Cancellation(), waiting: { _, _ in })
            try Data().write(to: cache.appendingPathComponent("VERSION"))
            lock.release()
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("a/b").path))
            #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("VERSION").path))
        }
    }

    @Test("A folder named twice, once through a symbolic link, is locked once rather than waiting for itself")
    func sameFolderTwice() throws {
        try withTemporaryDirectory { directory in
            // Given
            let folder = directory.appendingPathComponent("shared")
            let link = directory.appendingPathComponent("link")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)

            // When
            let lock = try WorkspaceLock(folders: [folder, link, folder], mode: .exclusive, creating: false,
                                         timeout: .zero, cancellation: Cancellation(), waiting: { _, _ in })

            // Then
            #expect(throws: LockTimeout.self) { try tryLock(folder) }
            withExtendedLifetime(lock) {}
        }
    }

    @Test("A check's shared locks neither make missing folders nor keep out other checks")
    func checkLocks() throws {
        try withTemporaryDirectory { directory in
            // Given an existing output folder and no cache
            let request = request(in: directory)
            try FileManager.default.createDirectory(at: request.output, withIntermediateDirectories: true)

            // When
            let first = try WorkspaceLock(checking: request, waiting: { _, _ in })
            let second = try WorkspaceLock(checking: request, waiting: { _, _ in })

            // Then
            #expect(!FileManager.default.fileExists(atPath: try #require(request.cache).path))
            #expect(throws: LockTimeout.self) { try tryLock(request.output) }
            withExtendedLifetime((first, second)) {}
        }
    }

    @Test("A build finds the journal a killed build left in the cache and removes its temporary files, and only then")
    func cacheJournal() throws {
        try withTemporaryDirectory { directory in
            // Given a cache with a killed build's journal and temporary file, and an entry
            let request = request(in: directory)
            let cache = try #require(request.cache)
            let leftover = cache.appendingPathComponent("cas/ab/" + AtomicFileWriter.temporaryName())
            let entry = cache.appendingPathComponent("cas/ab/ab01")
            for file in [leftover, entry, cache.appendingPathComponent(WriteJournal.noteName)] {
                try AtomicFileWriter.write(Data("x".utf8), to: file)
            }

            // When
            let lock = try WorkspaceLock(building: request, cancellation: Cancellation(), events: { _ in })

            // Then
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            #expect(FileManager.default.fileExists(atPath: entry.path))
            #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent(WriteJournal.noteName).path))

            // When released, Then the journal is gone, and a temporary file is left alone by the next build
            lock.release()
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent(WriteJournal.noteName).path))
            try AtomicFileWriter.write(Data("x".utf8), to: leftover)
            let next = try WorkspaceLock(building: request, cancellation: Cancellation(), events: { _ in })
            #expect(FileManager.default.fileExists(atPath: leftover.path), "swept without a journal: a full scan each build")
            withExtendedLifetime(next) {}
        }
    }
}
