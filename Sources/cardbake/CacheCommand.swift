import ArgumentParser
import CardBake
import CardBakeFiles
import Foundation

/// `cardbake cache stats` and `cardbake cache gc`.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show what the cache holds, or shrink it.",
        subcommands: [CacheStatsCommand.self, CacheGCCommand.self]
    )
}

struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Entries, bytes, the least recent use, and the hit rates of the last build; writes nothing."
    )

    @OptionGroup var cache: CacheOptions
    @OptionGroup var lock: LockOptions

    func run() throws {
        let console = Console()
        console.result("cache: \(cache.cacheURL.path)")
        console.result(try CacheMaintenance.statistics(of: cache.cacheURL, lockTimeout: lock.timeout,
                                                       waiting: console.waiting).description)
    }
}

struct CacheGCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove the least recently used cache entries until the cache fits the limits.",
        discussion: """
            What the last build that rendered or looked up its cards used is removed only when --max-size \
            cannot be met without it; --max-age never removes it.
            """
    )

    @OptionGroup var cache: CacheOptions
    @OptionGroup var lock: LockOptions
    @OptionGroup var verbosity: VerbosityOptions

    @Option(help: ArgumentHelp("The most the cache may hold: bytes, or with a 1024-based suffix K, M, G or T (500M, 2G).",
                               valueName: "size"))
    var maxSize: String

    @Option(help: ArgumentHelp("Also remove entries unused for longer than this: 30d, 12h, 90m or 45s.",
                               valueName: "duration"))
    var maxAge: String?

    func validate() throws {
        _ = try SizeArgument.bytes(parsing: maxSize, source: "--max-size")
        _ = try maxAge.map { try DurationArgument.seconds(parsing: $0, source: "--max-age") }
    }

    func run() throws {
        let console = Console(verbosity: verbosity)
        let collection = try CacheMaintenance.collect(
            cache.cacheURL, maxBytes: try SizeArgument.bytes(parsing: maxSize, source: "--max-size"),
            maxAge: try maxAge.map { .seconds(try DurationArgument.seconds(parsing: $0, source: "--max-age")) },
            lockTimeout: lock.timeout, waiting: console.waiting
        ) { entry, bytes in
            if verbosity.verbose { console.note("removing \(entry) (\(bytes.counting("byte")))") }
        }
        console.result(collection.description)
    }
}
