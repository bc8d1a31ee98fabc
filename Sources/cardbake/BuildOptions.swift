import ArgumentParser
import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeRemoteCache
import Foundation

/// Everything `build` takes; `watch` takes the same.
struct BuildOptions: ParsableArguments {
    @OptionGroup var location: LocationOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var cacheLimit: CacheSizeLimitOption
    @OptionGroup var lock: LockOptions
    @OptionGroup var verbosity: VerbosityOptions

    @OptionGroup var overrides: RenderOverrideOptions
    @OptionGroup var assetCatalog: AssetCatalogOption
    @OptionGroup var gallery: GalleryOption
    @OptionGroup var remote: RemoteCacheOptions
    @OptionGroup var photos: PhotoFetchOptions

    @Option(name: .shortAndLong, parsing: .unconditional,
            help: ArgumentHelp("Cards rendered at once.", discussion: "Default: one more than the CPUs this process "
                               + "may use (its affinity mask and cgroup CPU quota; --verbose says what was found)."))
    var jobs: Int = BuildRequest.defaultJobs

    @Flag(help: "Neither read nor keep the cache: render everything.")
    var noCache = false

    @Option(parsing: .unconditional, help: "Refuse images that declare more pixels than this, before decoding them.")
    var maxPixels: Int = BuildRequest.defaultMaxPixels

    @Option(help: "Write a JSON report of every card's status, time and cache hits to this file.")
    var report: String?

    @Option(help: ArgumentHelp("Build only shard i of N (1-based): the cards whose id hashes to it, a partial "
                               + "manifest and shard.json, for `cardbake merge`.", valueName: "i/N"))
    var shard: String?

    @Flag(help: "Fail a card whose text has characters no installed font can draw, and refuse a catalog that lacks a translation, instead of warning.")
    var strict = false

    /// `--shard` parsed; nil without the flag.
    var parsedShard: Shard? {
        get throws {
            guard let shard else { return nil }
            guard let parsed = Shard(parsing: shard) else {
                throw ValidationError("--shard takes i/N with 1 ≤ i ≤ N, such as 2/4; found \"\(shard)\".")
            }
            return parsed
        }
    }

    func validate() throws {
        _ = try parsedShard
        guard jobs >= 1 else { throw ValidationError("--jobs takes a positive number of cards, such as 3; found \(jobs).") }
        guard maxPixels >= 1 else {
            throw ValidationError("--max-pixels takes a positive number of pixels, such as 100000000; found \(maxPixels).")
        }
    }

    func request() throws -> BuildRequest {
        var request = BuildRequest(catalog: location.catalogURL, output: location.output.url,
                                   cache: noCache ? nil : cache.cacheURL, jobs: jobs, maxPixels: maxPixels,
                                   overrides: try overrides.styleOverrides(),
                                   lockTimeout: lock.timeout, shard: try parsedShard, strict: strict,
                                   cacheMaxBytes: try cacheLimit.maxBytes(), xcassets: assetCatalog.url)
        request.gallery = !gallery.noGallery
        request.photos = try photos.settings()
        return request
    }
}

/// One build as `build` and `watch` run it: progress on stderr, every failed card as an `error:`
/// line, the summary on stdout, and the `--report` file.
struct BuildRun {
    let options: BuildOptions
    let console: Console
    let interruption: Interruption
    /// Given by a command that runs build after build (``WatchCommand``), to each of them.
    var memo: RebuildMemo? = nil

    /// Throws what the build throws, ``Interrupted`` for a build stopped by a signal, and
    /// ``FlagError`` when the report cannot be written.
    func run() async throws -> BuildReport {
        if console.verbose {
            console.note("CPUs: \(UsableCPUs.current); \(options.jobs.counting("job"))")
        }
        let report: BuildReport
        do {
            report = try await options.remote.withServer { server in
                var request = try options.request()
                if let server {
                    request.remoteCache = RemoteCache(server: server, mode: options.remote.remoteCacheMode)
                    if console.verbose {
                        console.note("remote cache: \(server.displayName) (\(options.remote.remoteCacheMode.rawValue))")
                    }
                }
                return try await Builder(request: request, memo: memo)
                    .run(cancellation: interruption.cancellation, events: ProgressPrinter(console: console).handle)
            }
        } catch is BuildCancelled {
            throw Interrupted(folder: options.location.output.output, status: interruption.exitStatus)
        }
        for card in report.cards {
            for warning in card.warnings ?? [] {
                console.note("warning: \(options.location.catalog): \(card.location(of: warning.field)): \(warning.message)")
            }
        }
        for failure in report.failures {
            console.error("\(options.location.catalog): \(failure.location): \(failure.reason ?? "unknown reason")")
        }
        if console.verbose, let photos = report.photos {
            for use in photos.cards {
                console.note("photo of \(use.id): \(use.source.rawValue)")
            }
        }
        console.result(report.summary)
        if let collected = report.collected {
            console.note("cache: \(collected)")
        }
        if let path = options.report {
            do {
                try AtomicFileWriter.write(report.encoded(), to: URL(fileURLWithPath: path))
            } catch {
                throw FlagError(flag: "--report", underlying: error)
            }
        }
        return report
    }
}
