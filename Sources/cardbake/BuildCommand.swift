import ArgumentParser
import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import Foundation

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render every card of the catalog that is not already up to date."
    )

    @OptionGroup var location: LocationOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var remote: RemoteCacheOptions
    @OptionGroup var lock: LockOptions
    @OptionGroup var verbosity: VerbosityOptions

    @OptionGroup var overrides: RenderOverrideOptions

    @Option(name: .shortAndLong, parsing: .unconditional,
            help: "Cards rendered at once. Default: the number of cores plus one.")
    var jobs: Int = BuildRequest.defaultJobs

    @Flag(help: "Neither read nor keep the cache: render everything.")
    var noCache = false

    @Option(parsing: .unconditional, help: "Refuse images that declare more pixels than this, before decoding them.")
    var maxPixels: Int = BuildRequest.defaultMaxPixels

    @Option(help: "Write a JSON report of every card's status, time and cache hits to this file.")
    var report: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs takes a positive number of cards, such as 3; found \(jobs).") }
        guard maxPixels >= 1 else {
            throw ValidationError("--max-pixels takes a positive number of pixels, such as 100000000; found \(maxPixels).")
        }
    }

    func run() async throws {
        var request = BuildRequest(catalog: location.catalogURL, output: location.output.url,
                                   cache: noCache ? nil : cache.cacheURL, jobs: jobs, maxPixels: maxPixels,
                                   scales: try overrides.parsedScales(), format: overrides.format,
                                   lockTimeout: lock.timeout)
        let console = Console(verbosity: verbosity)
        let progress = ProgressPrinter(console: console)
        let interruption = Interruption()
        let builtReport: BuildReport
        do {
            builtReport = try await remote.withServer { server in
                if let server {
                    request.remoteCache = RemoteCache(server: server, mode: remote.remoteCacheMode)
                    if console.verbose { console.note("remote cache: \(server.displayName) (\(remote.remoteCacheMode.rawValue))") }
                }
                return try await Builder(request: request).run(cancellation: interruption.cancellation,
                                                               events: progress.handle)
            }
        } catch is BuildCancelled {
            throw Interrupted(folder: location.output.output, status: interruption.exitStatus)
        }
        for failure in builtReport.failures {
            console.error("\(location.catalog): \(failure.location): \(failure.reason ?? "unknown reason")")
        }
        console.result(builtReport.summary)
        if let report {
            do {
                try AtomicFileWriter.write(builtReport.encoded(), to: URL(fileURLWithPath: report))
            } catch {
                throw FlagError(flag: "--report", underlying: error)
            }
        }
        if !builtReport.failures.isEmpty {
            throw ExitCode(ExitStatus.failures)
        }
    }
}
