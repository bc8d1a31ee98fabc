import Foundation

/// The process holding a ``DirectoryLock``, as far as the system tells: its command name and pid,
/// from `/proc/locks` and `/proc/<pid>/comm`.
public struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// Nil when the holder could not be found (it may be in another pid namespace, or gone).
    public var pid: Int32?
    /// The holder's command name, e.g. `cardbake`; nil when unknown.
    public var command: String?

    /// `cardbake (pid 4242)`, or `another process` when the holder is unknown.
    public var description: String {
        guard let pid else { return "another process" }
        return "\(command ?? "process") (pid \(pid))"
    }

    /// Whoever holds a `flock` on the directory with this identity.
    package static func holding(_ identity: DirectoryLock.Identity?) -> LockHolder {
        guard let identity, let table = procFile("locks"), let pid = pid(in: table, holding: identity) else {
            return LockHolder(pid: nil, command: nil)
        }
        let command = procFile("\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
        return LockHolder(pid: pid, command: command?.isEmpty == false ? command : nil)
    }

    /// A file of `/proc`, read with a buffer large enough to take it in one `read`: such files are
    /// generated as they are read, and lines can be skipped when the table changes between reads.
    private static func procFile(_ name: String) -> String? {
        guard let file = try? ReadableFile(path: "/proc/" + name) else { return nil }
        var data = Data(count: 1 << 20)
        var filled = 0
        while filled < data.count {
            let count = (try? data.withUnsafeMutableBytes { bytes in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
            }) ?? 0
            if count == 0 { break }
            filled += count
        }
        return String(decoding: data.prefix(filled), as: UTF8.self)
    }

    /// The pid of the first `flock` holder of `identity` in a `/proc/locks` table, whose lines read
    /// `1: FLOCK  ADVISORY  WRITE 4242 fe:01:1234567 0 EOF` (a waiter's line has `->` after the
    /// number, so it never matches). The device is `major:minor` in hexadecimal, at least two digits each.
    package static func pid(in table: String, holding identity: DirectoryLock.Identity) -> Int32? {
        let device = identity.device
        // glibc's encoding of dev_t (gnu_dev_major / gnu_dev_minor).
        let major = (device & 0x0000_0000_000F_FF00) >> 8 | (device & 0xFFFF_F000_0000_0000) >> 32
        let minor = (device & 0x0000_0000_0000_00FF) | (device & 0x0000_0FFF_FFF0_0000) >> 12
        let file = "\(hex(major)):\(hex(minor)):\(identity.inode)"
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]) {
                return pid
            }
        }
        return nil
    }

    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }
}
