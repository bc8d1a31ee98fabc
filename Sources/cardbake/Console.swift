import CardBake
import CardBakeCatalog
import CardBakeFiles
import Foundation

/// Where cardbake's words go: results to stdout, `error:` and progress to stderr, colour only on a
/// terminal, nothing but errors with `--quiet`. Lines are written whole, so piped output stays tidy.
struct Console: Sendable {
    let quiet: Bool
    let verbose: Bool
    let errorIsTerminal = isatty(STDERR_FILENO) != 0

    init(verbosity: VerbosityOptions) {
        self.init(quiet: verbosity.quiet, verbose: verbosity.verbose)
    }

    /// A console for commands without `--quiet` and `--verbose`.
    init(quiet: Bool = false, verbose: Bool = false) {
        self.quiet = quiet
        self.verbose = verbose
    }

    /// A result line (stdout), e.g. the build summary.
    func result(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A remark (stderr), silenced by `--quiet`.
    func note(_ line: String) {
        guard !quiet else { return }
        writeError(line + "\n")
    }

    /// Says, once, that the command waits for `holder` to release `folder` (stderr), silenced by `--quiet`.
    func waiting(for folder: URL, holder: LockHolder) {
        note("waiting for \(holder) to finish with \(folder.path) …")
    }

    /// An error (stderr), always shown; each line of a multi-line message is its own `error:` line.
    func error(_ message: String) {
        let label = errorIsTerminal ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
        writeError(message.split(separator: "\n").map { "\(label) \($0)\n" }.joined())
    }

    /// A warning (stderr): something that cost time but not a result. Silenced by `--quiet`.
    func warning(_ message: String) {
        guard !quiet else { return }
        let label = errorIsTerminal ? "\u{1B}[1;33mwarning:\u{1B}[0m" : "warning:"
        writeError("\(label) \(message)\n")
    }

    /// Rewrites the current terminal line (progress bars); only on a terminal.
    func status(_ line: String) {
        guard !quiet, errorIsTerminal else { return }
        writeError(line)
    }

    /// Writes to stderr; on a terminal, first clears the line a progress bar may occupy.
    private func writeError(_ text: String) {
        let clearLine = errorIsTerminal ? "\r\u{1B}[2K" : ""
        FileHandle.standardError.write(Data((clearLine + text).utf8))
    }
}
