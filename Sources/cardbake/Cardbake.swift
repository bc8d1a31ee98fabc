import ArgumentParser
import CardBake
import CardBakeCatalog
import CardBakeFiles
import CMalloc
import Foundation

/// `cardbake`: prerenders app cards from a catalog. Exit status: 0 success; 1 some cards failed or
/// `check` found differences, or a build stopped on a file it could not write; 2 usage or catalog
/// error (nothing rendered); 3 another cardbake held the folders past `--lock-timeout`; 130 / 143 interrupted.
struct Cardbake: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardbake",
        abstract: "Prerender app cards: a photo, a title and a description over a blurred copy of the photo.",
        discussion: """
            Exit status: 0 success; 1 some cards failed, check found differences, or a file could not be \
            written; 2 usage or catalog error (nothing rendered); 3 another cardbake used the output or cache \
            folder for longer than --lock-timeout; 130 interrupted (143 on SIGTERM).
            """,
        version: "cardbake \(Builder.version) (libvips \(Builder.libvipsVersion))",
        subcommands: [BuildCommand.self, CheckCommand.self, CleanCommand.self],
        defaultSubcommand: BuildCommand.self
    )
}

@main
enum Main {
    static func main() async {
        // A write past RLIMIT_FSIZE (ulimit -f) then fails with EFBIG, reported like a full disk,
        // instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        // glibc gives busy threads arenas of their own, up to 8 per core, each keeping the large
        // buffers its thread freed; one arena per core keeps that retention in check. On the bench's
        // 48-card cold build, 2 workers on 2 cores, GLIBC_TUNABLES=glibc.malloc.arena_max=2 took
        // peak RSS from 195 to about 150 MB with CPU time unchanged (`/usr/bin/time`).
        mallopt(M_ARENA_MAX, Int32(ProcessInfo.processInfo.activeProcessorCount))
        do {
            var command = try Cardbake.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as LockTimeout {
            Console().error("\(error) (--lock-timeout)")
            Foundation.exit(ExitStatus.lockTimeout)
        } catch {
            // ArgumentParser's own code for usage errors is 64; cardbake documents 2.
            let code = Cardbake.exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((Cardbake.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            Cardbake.exit(withError: error)
        }
    }
}

/// The exit statuses cardbake documents.
enum ExitStatus {
    static let failures: Int32 = 1
    static let usage: Int32 = 2
    static let lockTimeout: Int32 = 3
}
