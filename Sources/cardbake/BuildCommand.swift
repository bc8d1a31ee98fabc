import ArgumentParser
import CardBake
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
    @OptionGroup var lock: LockOptions
    @OptionGroup var verbosity: VerbosityOptions

    @OptionGroup var overrides: RenderOverrideOptions

    @Option(name: .shortAndLong, help: "Cards rendered at once. Default: the number of cores plus one.")
    var jobs: Int = BuildRequest.defaultJobs

    @Flag(help: "Neither read nor keep the cache: render everything.")
    var noCache = false

    @Option(help: "Refuse images that declare more pixels than this, before decoding them.")
    var maxPixels: Int = 100_000_000

    @Option(help: "Write a JSON report of every card's status, time and cache hits to this file.")
    var report: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be at least 1.") }
    }

    func run() async throws {
        let request = BuildRequest(catalog: location.catalogURL, output: location.outputURL,
                                   cache: noCache ? nil : cache.cacheURL, jobs: jobs, maxPixels: maxPixels,
                                   scales: try overrides.parsedScales(), format: overrides.format,
                                   lockTimeout: lock.timeout)
        let console = Console(verbosity: verbosity)
        let progress = ProgressPrinter(console: console)
        let interruption = Interruption()
        let builtReport: BuildReport
        do {
            builtReport = try await Builder(request: request).run(cancellation: interruption.cancellation,
                                                            events: progress.handle)
        } catch let error as CatalogError {
            console.error("\(error)")
            throw ExitCode(ExitStatus.usage)
        } catch is BuildCancelled {
            console.error("interrupted; \(location.output) was left as it was.")
            throw ExitCode(interruption.exitStatus)
        } catch let error as FileSystemError where error.isWriteFailure {
            console.error("\(error)\nthe build stopped: no file was left half written and the cache is valid; "
                          + "build again once the cause is fixed.")
            throw ExitCode(ExitStatus.failures)
        }
        if let report {
            try AtomicFileWriter.write(builtReport.encoded(), to: URL(fileURLWithPath: report))
        }
        for failure in builtReport.failures {
            console.error("\(location.catalog): \(failure.location): \(failure.reason ?? "unknown reason")")
        }
        console.result(builtReport.summary)
        if !builtReport.failures.isEmpty {
            throw ExitCode(ExitStatus.failures)
        }
    }
}
