import Dispatch
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one run of cardbake did.
struct RunResult: CustomStringConvertible {
    var arguments: [String]
    /// The exit status; for a process killed by a signal, 128 + the signal (as a shell shows it).
    var status: Int32
    /// True when the process ended through `exit`, not killed by a signal.
    var exited: Bool
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// For failure messages: the command and everything it printed.
    var description: String {
        "cardbake \(arguments.joined(separator: " ")) → \(exited ? "exit" : "signal") \(status)\n"
            + "stdout:\n\(stdout)stderr:\n\(stderr)"
    }
    var comment: Comment { Comment(rawValue: description) }
}

/// A cardbake process started by a test; stdout and stderr go to files so nothing can block.
final class RunningCardbake: @unchecked Sendable {
    let arguments: [String]
    private let process = Process()
    private let finished = DispatchSemaphore(value: 0)
    private let stdoutURL: URL
    private let stderrURL: URL

    init(binary: URL, arguments: [String], directory: URL, environment: [String: String], logs: URL) throws {
        self.arguments = arguments
        let name = UUID().uuidString
        stdoutURL = logs.appendingPathComponent("\(name).stdout")
        stderrURL = logs.appendingPathComponent("\(name).stderr")
        for url in [stdoutURL, stderrURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw SandboxError("cannot create \(url.path)")
            }
        }
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        let finished = finished
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
    }

    var pid: pid_t { process.processIdentifier }

    /// What the process has written to stderr so far.
    var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// What the process has written to stdout so far.
    var stdoutSoFar: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Polls stderr until it contains `text` or the process ends; true when found.
    /// `timeout` only bounds a hung process; it is not a timing assertion.
    func waitForStderr(containing text: String, timeout: TimeInterval = 120) -> Bool {
        waitUntil(timeout: timeout) { stderrSoFar.contains(text) }
    }

    /// Polls `condition` until it holds or the process ends; true when it holds.
    /// `timeout` only bounds a hung process; it is not a timing assertion.
    func waitUntil(timeout: TimeInterval = 120, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(2_000)
        }
        return false
    }

    /// Waits for the process to end. After `timeout` it is killed and the test fails.
    func wait(timeout: TimeInterval = 300) throws -> RunResult {
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(pid, SIGKILL)
            finished.wait()
            Issue.record("cardbake \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s; killed it")
        }
        let exited = process.terminationReason == .exit
        let status = exited ? process.terminationStatus : 128 + process.terminationStatus
        return RunResult(arguments: arguments, status: status, exited: exited,
                         stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                         stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
    }
}
