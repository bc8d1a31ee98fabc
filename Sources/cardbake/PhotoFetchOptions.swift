import ArgumentParser
import CardBake
import CardBakeFetch
import Foundation

/// How a build fetches the photos a catalog gives as URLs: `--offline`, `--refresh`, the limits.
struct PhotoFetchOptions: ParsableArguments {
    @Flag(help: "Make no network request for photos given as URLs: use the cached copies, however old; a card whose photo was never fetched fails.")
    var offline = false

    @Flag(help: "Revalidate every photo given as a URL now (a conditional GET), whatever its catalog's remoteImages.maxAge.")
    var refresh = false

    @Option(help: ArgumentHelp("Stop a photo's download past this size (1024-based suffix K, M or G).", valueName: "size"))
    var maxDownloadSize = "50M"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Give up on one photo's request after this many seconds (connecting: at most 10).", valueName: "seconds"))
    var fetchTimeout: Double = 60

    func validate() throws {
        guard !(offline && refresh) else { throw ValidationError("--offline and --refresh exclude each other: choose one.") }
        guard fetchTimeout > 0, fetchTimeout.isFinite else {
            throw ValidationError("--fetch-timeout takes a number of seconds above 0, such as 60; found \(fetchTimeout).")
        }
        _ = try maxDownloadBytes()
    }

    private func maxDownloadBytes() throws -> Int {
        let bytes = try SizeArgument.bytes(parsing: maxDownloadSize, source: "--max-download-size")
        guard bytes >= 1, bytes <= Int64(Int32.max) else {
            throw ValidationError("--max-download-size takes a size from 1 byte to 2G; found \"\(maxDownloadSize)\".")
        }
        return Int(bytes)
    }

    func settings() throws -> PhotoFetchSettings {
        var settings = PhotoFetchSettings()
        settings.mode = offline ? .offline : refresh ? .refresh : .normal
        settings.maxDownloadBytes = try maxDownloadBytes()
        settings.requestTimeout = .milliseconds(Int64(fetchTimeout * 1000))
        settings.connectTimeout = min(settings.connectTimeout, settings.requestTimeout)
        return settings
    }
}
