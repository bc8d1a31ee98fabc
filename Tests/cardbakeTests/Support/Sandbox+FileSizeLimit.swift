import Foundation

/// Runs cardbake with a limit on the size of the files it writes, as a full disk would stop it.
extension Sandbox {
    /// Runs cardbake in `work/` allowed to write files of at most `kibibytes` KiB (`ulimit -f`, set
    /// by a shell that then becomes cardbake): a write past it fails with EFBIG. Waits for it as
    /// ``run(_:environment:timeout:)`` does.
    func run(_ arguments: [String], fileSizeLimit kibibytes: Int) throws -> RunResult {
        let process = try RunningCardbake(
            binary: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", "ulimit -f \(kibibytes) && exec \"$0\" \"$@\"", try Self.binary().path] + arguments,
            directory: work, environment: Self.environment([:]), logs: logs)
        return try process.wait()
    }
}
