import Foundation
import Glibc
import Synchronization
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("DirectoryLock")
struct DirectoryLockTests {
    /// Locks `folder` without waiting: nil when it is missing, LockTimeout when another holds it.
    func lock(_ folder: URL, _ mode: DirectoryLock.Mode = .exclusive, creating: Bool = false) throws -> DirectoryLock? {
        try DirectoryLock.acquire(folder, mode: mode, creating: creating, timeout: .zero,
                                  cancellation: Cancellation(), waiting: { _ in })
    }

    @Test("An exclusive lock keeps out every other lock until released; the error names the folder and the holder")
    func exclusive() throws {
        try withTemporaryDirectory { folder in
            // Given
            let held = try #require(try lock(folder))

            // When / Then
            let error = try #require(throws: LockTimeout.self) { try lock(folder) }
            #expect(error.holder.pid == getpid())
            #expect(error.description.contains(folder.path) && error.description.contains("(pid \(getpid()))"),
                    "\(error)")
            #expect(throws: LockTimeout.self) { try lock(folder, .shared) }

            // When released, Then it can be taken again
            held.release()
            #expect(try lock(folder) != nil)
        }
    }

    @Test("Shared locks are held together, and keep out an exclusive one")
    func shared() throws {
        try withTemporaryDirectory { folder in
            // Given
            let first = try #require(try lock(folder, .shared))

            // When
            let second = try lock(folder, .shared)

            // Then
            #expect(second != nil)
            #expect(throws: LockTimeout.self) { try lock(folder) }
            withExtendedLifetime((first, second)) {}
        }
    }

    @Test("A missing folder is made, with its parents, only when asked; otherwise it is not locked")
    func missingFolder() throws {
        try withTemporaryDirectory { directory in
            // Given
            let folder = directory.appendingPathComponent("a/b/Output")

            // When / Then
            #expect(try lock(folder) == nil)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("a").path))
            let made = try lock(folder, creating: true)
            #expect(made != nil)
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }

    @Test("A file where the folder should be is reported, naming it")
    func notAFolder() throws {
        try withTemporaryDirectory { directory in
            // Given
            let file = directory.appendingPathComponent("Output")
            try Data().write(to: file)

            // When / Then
            #expect(throws: FileSystemError.cannotLock(path: file.path, errno: ENOTDIR)) { try lock(file) }
        }
    }

    @Test("A waiter is told once who holds the folder, and gets the lock when the holder lets go")
    func waiting() throws {
        try withTemporaryDirectory { folder in
            // Given
            let held = try #require(try lock(folder))
            let waiter = Waiter(folder: folder, creating: false)

            // When
            try #require(waiter.announced.wait(timeout: .now() + 60) == .success, "the waiter never said it waits")
            held.release()

            // Then
            try #require(waiter.acquired.wait(timeout: .now() + 60) == .success, "the waiter never got the lock")
            #expect(waiter.holders.withLock { $0.map(\.pid) } == [getpid()])
            waiter.done.signal()
        }
    }

    @Test("A folder removed and made again while a waiter waits (clean --cache) is locked anew, not the removed one")
    func replacedFolder() throws {
        try withTemporaryDirectory { directory in
            // Given a held cache folder and a build waiting for it
            let folder = directory.appendingPathComponent(".cardbake")
            let held = try #require(try lock(folder, creating: true))
            let waiter = Waiter(folder: folder, creating: true)
            try #require(waiter.announced.wait(timeout: .now() + 60) == .success, "the waiter never said it waits")

            // When the holder removes the folder, then lets go
            try FileManager.default.removeItem(at: folder)
            held.release()

            // Then the waiter holds the folder the path names now
            try #require(waiter.acquired.wait(timeout: .now() + 60) == .success, "the waiter never got the lock")
            #expect(FileManager.default.fileExists(atPath: folder.path))
            #expect(throws: LockTimeout.self) { try lock(folder) }
            waiter.done.signal()
        }
    }

    @Test("A cancelled waiter stops waiting with BuildCancelled")
    func cancelled() throws {
        try withTemporaryDirectory { folder in
            // Given
            let held = try #require(try lock(folder))
            let cancellation = Cancellation()
            cancellation.cancel()

            // When / Then
            #expect(throws: BuildCancelled.self) {
                try DirectoryLock.acquire(folder, mode: .exclusive, creating: false, timeout: nil,
                                          cancellation: cancellation, waiting: { _ in })
            }
            withExtendedLifetime(held) {}
        }
    }

    @Test("A timeout ends the wait with LockTimeout once it has passed, after saying once that it waits")
    func timeout() throws {
        try withTemporaryDirectory { folder in
            // Given
            let held = try #require(try lock(folder))
            let start = ContinuousClock.now
            var announcements = 0

            // When / Then
            let error = try #require(throws: LockTimeout.self) {
                try DirectoryLock.acquire(folder, mode: .shared, creating: false, timeout: .milliseconds(50),
                                          cancellation: Cancellation(), waiting: { _ in announcements += 1 })
            }
            #expect(ContinuousClock.now - start >= .milliseconds(50))
            #expect(announcements == 1)
            #expect(error.timeout == .milliseconds(50))
            withExtendedLifetime(held) {}
        }
    }

    @Test("The holder's pid is read from /proc/locks: flock lines of the folder's device and inode only")
    func holderFromProcLocks() {
        // Given device 0x103:0x2 in glibc's dev_t encoding, and a table with other kinds of lines
        let device: UInt64 = (0x103 & 0xFFF) << 8 | 0x02
        let identity = DirectoryLock.Identity(device: device, inode: 1234)
        let table = """
            1: POSIX  ADVISORY  WRITE 11 103:02:1234 0 EOF
            2: FLOCK  ADVISORY  WRITE 22 103:02:999 0 EOF
            3: -> FLOCK  ADVISORY  WRITE 33 103:02:1234 0 EOF
            4: FLOCK  ADVISORY  WRITE 44 03:02:1234 0 EOF
            5: FLOCK  ADVISORY  READ 55 103:02:1234 0 EOF
            """

        // When / Then
        #expect(LockHolder.pid(in: table, holding: identity) == 55)
        #expect(LockHolder.pid(in: "", holding: identity) == nil)
        #expect(LockHolder(pid: nil, command: nil).description == "another process")
        #expect(LockHolder(pid: 7, command: "cardbake").description == "cardbake (pid 7)")
    }
}

/// A thread waiting for an exclusive lock on `folder`; it holds the lock it gets until `done`.
private final class Waiter: Sendable {
    let announced = DispatchSemaphore(value: 0)
    let acquired = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let holders = Mutex<[LockHolder]>([])

    init(folder: URL, creating: Bool) {
        Thread.detachNewThread { [self] in
            let lock = try? DirectoryLock.acquire(folder, mode: .exclusive, creating: creating, timeout: nil,
                                                  cancellation: Cancellation()) { holder in
                self.holders.withLock { $0.append(holder) }
                self.announced.signal()
            }
            guard lock != nil else { return }
            self.acquired.signal()
            self.done.wait()
            lock?.release()
        }
    }
}
