import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import Foundation

/// Everything a build needs to know; the CLI turns flags into one of these.
public struct BuildRequest: Sendable {
    public var catalog: URL
    public var output: URL
    /// The cache folder; nil builds without reading or keeping a cache (`--no-cache`).
    public var cache: URL?
    /// Cards rendered at once, each on its own thread.
    public var jobs: Int
    /// Images declaring more pixels are refused before decoding.
    public var maxPixels: Int
    /// Replace every card's scales (`--scales`); checked by the rule for a catalog's `scales` when the
    /// catalog is loaded.
    public var scales: [Int]?
    /// Replace every card's format (`--format`).
    public var format: OutputFormat.Kind?
    /// How long to wait for another cardbake using the same output or cache folder; nil waits as long as it takes.
    public var lockTimeout: Duration?
    /// A second cache tier behind the local one (`--remote-cache`); nil for none.
    public var remoteCache: RemoteCache?
    /// How long the build waits at its end for uploads to the remote cache still running.
    public var remoteUploadWait: Duration = .seconds(60)

    /// The default `maxPixels`: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// The default `jobs`: one more than the cores. A worker's card alternates between libvips and
    /// Swift stages with hand-offs between threads, so one worker per core leaves cores idle
    /// (docs/ARCHITECTURE.md has the measurement).
    public static let defaultJobs = ProcessInfo.processInfo.activeProcessorCount + 1

    public init(catalog: URL, output: URL, cache: URL?, jobs: Int = BuildRequest.defaultJobs,
                maxPixels: Int = BuildRequest.defaultMaxPixels, scales: [Int]? = nil, format: OutputFormat.Kind? = nil,
                lockTimeout: Duration? = nil) {
        self.catalog = catalog
        self.output = output
        self.cache = cache
        self.jobs = jobs
        self.maxPixels = maxPixels
        self.scales = scales
        self.format = format
        self.lockTimeout = lockTimeout
    }

    /// The catalog as this request builds it: loaded with `scales` and `format` as its last style layer,
    /// then validated.
    /// - Throws: ``CatalogError``, or ``OverrideError`` when `scales` breaks the rule for scales.
    public func loadCatalog() throws -> Catalog {
        try CatalogLoader.load(from: catalog, overrides: StyleOverrides(scales: scales, format: format))
    }
}

/// Progress of a running build, for a progress bar or log lines.
public enum BuildEvent: Sendable {
    /// Another process holds `folder`; the build waits for it (reported once per folder).
    case waiting(for: URL, holder: LockHolder)
    /// Planning is done: of `total` cards, `toRender` need rendering, `failed` cannot be built (the
    /// rest are cached).
    case planned(total: Int, toRender: Int, failed: Int)
    /// A card needing work finished (rendered or failed); `done` of `toRender`.
    case finished(BuildReport.CardResult, done: Int, of: Int)
    /// Something went wrong that costs time but not cards, such as an object the remote cache
    /// sent damaged, or the remote cache given up on.
    case warning(String)
}
