import ArgumentParser
import CardBake
import CardBakeCatalog
import CardBakeFiles
import CMalloc
import Foundation

/// `cardbake`: prerenders app cards from a catalog. Errors end a command through ``Failure``, with
/// the statuses of ``ExitStatus``.
struct Cardbake: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardbake",
        abstract: "Prerender app cards: a photo, a title and a description over a blurred copy of the photo.",
        discussion: """
            Exit status: 0 success; 1 some cards failed, check found differences, or a file or folder could \
            not be written, read or locked; 2 the command cannot run as given: a flag, the catalog, a cache \
            folder of another version, a format libvips cannot write, or a bad --xcassets (nothing rendered), \
            or shards merge refused; 3 another cardbake used the output or cache folder for longer than \
            --lock-timeout; 130 interrupted (143 on SIGTERM); 127 libvips or Pango cannot be loaded.
            """,
        version: Builder.versionLine,
        subcommands: [BuildCommand.self, WatchCommand.self, CheckCommand.self, CleanCommand.self, MergeCommand.self,
                      CacheCommand.self],
        defaultSubcommand: BuildCommand.self
    )
}

@main
enum Main {
    static func main() async {
        // A write past RLIMIT_FSIZE (ulimit -f) then fails with EFBIG, reported like a full disk,
        // instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        // glibc gives busy threads arenas of their own, up to 8 per core, each keeping what its
        // threads freed; one arena per two usable CPUs lets every thread reuse that memory, so a long
        // build's peak stays near a short one's (bench/README.md, "Workers and the allocator").
        mallopt(M_ARENA_MAX, Int32(max(1, UsableCPUs.current.count / 2)))
        // Decoded images, canvases and encoded bitmaps (all under 32 MiB) are reused from the heap
        // rather than mapped and unmapped for each card, whose page faults cost more than the
        // memory; the heap keeps what `FreeMemoryReturn` keeps free. A fixed threshold: glibc's own
        // moves with every free and fragments the heap (bench/README.md, "Workers and the allocator").
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        mallopt(M_TRIM_THRESHOLD, Int32(FreeMemoryReturn.keptFree))
        do {
            var command = try Cardbake.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            Failure.exit(for: error)
        }
    }
}
