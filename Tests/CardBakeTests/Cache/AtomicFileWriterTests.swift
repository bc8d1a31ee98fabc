import Foundation
import Glibc
import Testing
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

@Suite("AtomicFileWriter")
struct AtomicFileWriterTests {
    @Test("Writes a new file, creating missing directories, and leaves no temporary file")
    func writesNewFile() throws {
        try withTemporaryDirectory { directory in
            // Given
            let file = directory.appendingPathComponent("a/b/c/card@2x.png")
            // When
            try AtomicFileWriter.write(Data("hello".utf8), to: file)
            // Then
            #expect(try Data(contentsOf: file) == Data("hello".utf8))
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }

    @Test("A file written in pieces appears only when committed; discarded or dropped, it leaves the old file and nothing else")
    func pendingFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("index.html")
            try AtomicFileWriter.write(Data("old".utf8), to: file)

            let pending = try AtomicFileWriter.PendingFile(replacing: file)
            try pending.append(Data("new ".utf8))
            try pending.append(Data("page".utf8))
            #expect(try Data(contentsOf: file) == Data("old".utf8))
            #expect(temporaryFiles(under: directory).count == 1)
            pending.discard()
            #expect(try Data(contentsOf: file) == Data("old".utf8))
            #expect(temporaryFiles(under: directory).isEmpty)

            do {
                let dropped = try AtomicFileWriter.PendingFile(replacing: file)
                try dropped.append(Data("never published".utf8))
            }
            #expect(temporaryFiles(under: directory).isEmpty)

            let digesting = try DigestingFile(replacing: file)
            try digesting.append(Data("new ".utf8))
            try digesting.append(Data("page".utf8))
            #expect(digesting.digest == ContentDigest.sha256(Data("new page".utf8)))
            try digesting.commit()
            #expect(try Data(contentsOf: file) == Data("new page".utf8))
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }

    @Test("Pieces of any size, small ones gathered and large ones written as they come, make the file in order")
    func piecesOfAnySize() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("manifest.json")
            let sizes = [3, 70_000, 1, 65_535, 2, 200_000, 0, 9]
            let pieces = sizes.enumerated().map { index, size in Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) }) }
            let pending = try AtomicFileWriter.PendingFile(replacing: file)
            for piece in pieces {
                try pending.append(piece)
            }
            try pending.commit()
            #expect(try Data(contentsOf: file) == pieces.reduce(Data(), +))
        }
    }

    @Test("Replaces an existing file with a new one (a new inode, so open readers keep the old bytes)")
    func replacesFile() throws {
        try withTemporaryDirectory { directory in
            // Given
            let file = directory.appendingPathComponent(CardManifest.fileName)
            try AtomicFileWriter.write(Data("old contents".utf8), to: file)
            let oldInode = try FileStatus(path: file.path).inode
            let reader = try ReadableFile(path: file.path)
            // When
            try AtomicFileWriter.write(Data("new".utf8), to: file)
            // Then
            #expect(try Data(contentsOf: file) == Data("new".utf8))
            #expect(try FileStatus(path: file.path).inode != oldInode)
            #expect(try reader.readToEnd() == Data("old contents".utf8))
        }
    }

    @Test("Writes empty data and large data")
    func sizes() throws {
        try withTemporaryDirectory { directory in
            for size in [0, 3 << 20] {
                let data = Data(repeating: 0xA5, count: size)
                let file = directory.appendingPathComponent("file-\(size)")
                try AtomicFileWriter.write(data, to: file)
                #expect(try Data(contentsOf: file) == data)
            }
        }
    }

    @Test("New files get 0666 less the umask, not mkstemp's 0600")
    func permissions() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("out.png")
            let mask = umask(0o022)
            defer { umask(mask) }
            try AtomicFileWriter.write(Data("x".utf8), to: file)
            var info = stat()
            #expect(stat(file.path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o644)
        }
    }

    @Test("When the rename fails, the error names the destination and the temporary file is removed")
    func renameFailure() throws {
        try withTemporaryDirectory { directory in
            // Given: the destination is a non-empty directory, so the temporary file is written but cannot be renamed.
            let destination = directory.appendingPathComponent("taken")
            try AtomicFileWriter.write(Data("x".utf8), to: destination.appendingPathComponent("inside"))
            // When
            let error = try #require(throws: FileSystemError.self) {
                try AtomicFileWriter.write(Data("y".utf8), to: destination)
            }
            // Then
            #expect(error == .cannotWrite(path: destination.path, errno: EISDIR))
            #expect(error.description == "Could not write \"\(destination.path)\": Is a directory.")
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }

    @Test("A file where a directory should be is reported, and nothing is left behind")
    func fileInTheWay() throws {
        try withTemporaryDirectory { directory in
            // Given
            let blocker = directory.appendingPathComponent("cas")
            try writeFile("not a directory", to: blocker)
            let destination = blocker.appendingPathComponent("ab/abcdef")
            // When
            let error = try #require(throws: FileSystemError.self) {
                try AtomicFileWriter.write(Data("y".utf8), to: destination)
            }
            // Then
            #expect(error == .cannotWrite(path: destination.path, errno: ENOTDIR))
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }

    @Test("A parent that cannot be made a directory is reported as such")
    func cannotCreateDirectory() throws {
        try withTemporaryDirectory { directory in
            // Given: a dangling symbolic link where a parent directory is needed.
            let link = directory.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/target")
            // When
            let error = try #require(throws: FileSystemError.self) {
                try AtomicFileWriter.write(Data("y".utf8), to: link.appendingPathComponent("file"))
            }
            // Then
            #expect(error == .cannotCreateDirectory(path: link.path, errno: ENOTDIR))
            #expect(error.description == "Could not create the directory \"\(link.path)\": Not a directory.")
        }
    }

    @Test("A read-only directory is reported and left clean", .enabled(if: getuid() != 0, "root may write anywhere"))
    func readOnlyDirectory() throws {
        try withTemporaryDirectory { directory in
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            chmod(locked.path, 0o555)
            defer { chmod(locked.path, 0o755) }
            let destination = locked.appendingPathComponent("file")
            let error = try #require(throws: FileSystemError.self) {
                try AtomicFileWriter.write(Data("y".utf8), to: destination)
            }
            #expect(error == .cannotWrite(path: destination.path, errno: EACCES))
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }

    @Test("Many threads replacing one file: every reader sees one complete version")
    func concurrentReplacement() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("shared")
            let versions = (0..<16).map { Data(repeating: UInt8($0), count: 64 << 10) }
            try AtomicFileWriter.write(versions[0], to: file)
            DispatchQueue.concurrentPerform(iterations: 64) { iteration in
                if iteration % 2 == 0 {
                    #expect(throws: Never.self) {
                        try AtomicFileWriter.write(versions[iteration % versions.count], to: file)
                    }
                } else {
                    let seen = try? Data(contentsOf: file)
                    #expect(seen.map(versions.contains) == true)
                }
            }
            #expect(versions.contains(try Data(contentsOf: file)))
            #expect(temporaryFiles(under: directory).isEmpty)
        }
    }
}
