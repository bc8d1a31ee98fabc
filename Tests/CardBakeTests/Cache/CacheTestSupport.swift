import Foundation
import Glibc
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender

/// Writes a file in place (same inode, truncated, not atomic), as many tools do.
func writeFile(_ text: String, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw FileSystemError.cannotWrite(path: url.path, errno: errno) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else {
        throw FileSystemError.cannotWrite(path: url.path, errno: errno)
    }
}

/// Names of the temporary files `AtomicFileWriter` leaves if it fails to clean up, anywhere under `directory`.
func temporaryFiles(under directory: URL) -> [String] {
    let names = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
    return names.filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp-") }
}

/// Inverts the bits of one byte of a file, in place.
func flipByte(at offset: Int, in url: URL) throws {
    var bytes = try Data(contentsOf: url)
    bytes[offset] ^= 0xFF
    try bytes.write(to: url)
}

/// Sets a file's modification (and access) time with `utimensat`, to the nanosecond.
func setModificationTime(of url: URL, to nanoseconds: Int64) throws {
    let time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    let times = [time, time]
    guard utimensat(AT_FDCWD, url.path, times, 0) == 0 else {
        throw FileSystemError.cannotWrite(path: url.path, errno: errno)
    }
}

/// The file's modification time in nanoseconds since 1970.
func modificationTime(of url: URL) throws -> Int64 {
    try FileStatus(path: url.fileSystemPath).modificationTime
}
