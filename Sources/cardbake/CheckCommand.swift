import ArgumentParser
import CardBake
import CardBakeCatalog
import CardBakeFiles
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Write nothing; exit 0 when the output matches what a build would produce, 1 when not.",
        discussion: "Lists each missing, stale, extra or failing card and which input changed."
    )

    @OptionGroup var location: LocationOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var lock: LockOptions
    @OptionGroup var overrides: RenderOverrideOptions
    @OptionGroup var assetCatalog: AssetCatalogOption
    @OptionGroup var gallery: GalleryOption
    @OptionGroup var verbosity: VerbosityOptions

    func run() async throws {
        let console = Console(verbosity: verbosity)
        var request = BuildRequest(catalog: location.catalogURL, output: location.output.url, cache: cache.cacheURL,
                                   overrides: try overrides.styleOverrides(),
                                   lockTimeout: lock.timeout, xcassets: assetCatalog.url)
        request.gallery = !gallery.noGallery
        let findings = try await Checker(request: request).run(waiting: console.waiting, note: { console.note($0) })
        for finding in findings {
            console.result(finding.description)
        }
        if findings.isEmpty {
            console.note("\(location.output.output) is up to date.")
        } else {
            console.note("\(findings.count.counting("card")) out of date.")
            throw ExitCode(ExitStatus.failures)
        }
    }
}
