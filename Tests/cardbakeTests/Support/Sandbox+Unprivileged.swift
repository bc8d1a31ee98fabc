import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs cardbake as a user file permissions apply to.
///
/// Root reads a file of mode 000, so when the tests run as root (as in CI) a run that must meet an
/// unreadable file drops to `nobody` (uid and gid 65534) with util-linux's `setpriv`. The sandbox is
/// opened to that user first: its folders become traversable, `work/` and a home folder writable.
extension Sandbox {
    static let unprivilegedID = 65534
    static let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")

    /// Whether runs through ``runUnprivileged(_:)`` drop privileges.
    static var dropsPrivileges: Bool { getuid() == 0 }

    /// Runs cardbake in `work/` as `nobody` when this process is root, otherwise as this user; waits
    /// for it as ``run(_:environment:timeout:)`` does.
    func runUnprivileged(_ arguments: [String]) throws -> RunResult {
        guard Self.dropsPrivileges else { return try run(arguments) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for (folder, mode) in [(root, 0o755), (work, 0o777), (home, 0o777)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder.path)
        }
        let id = Self.unprivilegedID
        let process = try RunningCardbake(
            binary: Self.setpriv,
            arguments: ["--reuid=\(id)", "--regid=\(id)", "--clear-groups", try Self.binary().path] + arguments,
            directory: work, environment: Self.environment(["HOME": home.path, "XDG_CACHE_HOME": nil]), logs: logs)
        return try process.wait()
    }
}
