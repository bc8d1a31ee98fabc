import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
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
    /// Values that replace every card's (`--scales`, `--format`): the catalog's last style layer.
    public var overrides: StyleOverrides
    /// How long to wait for another cardbake using the same output or cache folder; nil waits as long as it takes.
    public var lockTimeout: Duration?
    /// Build only this shard's cards (`--shard i/N`), writing a partial manifest and a ``ShardRecord``.
    public var shard: Shard?
    /// Fail a card whose text has characters no installed font draws, and refuse a catalog that
    /// lacks a translation (`--strict`), instead of warning.
    public var strict: Bool
    /// The size the cache folder is collected down to, least recently used entries first, at the end
    /// of a build that stored anything in it (`--cache-max-size`); nil lets it grow.
    public var cacheMaxBytes: Int64?
    /// An Xcode asset catalog to keep in line with the output folder (`--xcassets`); nil for none.
    public var xcassets: URL?
    /// Write the preview gallery (`index.html` and `index-version.js`) beside the manifest; when
    /// false, a gallery cardbake wrote there before is removed (`--no-gallery`).
    public var gallery: Bool = true
    /// A second cache tier behind the local one (`--remote-cache`); nil for none.
    public var remoteCache: RemoteCache?
    /// How long the build waits at its end for uploads to the remote cache still running.
    public var remoteUploadWait: Duration = .seconds(60)
    /// How photos given as URLs are fetched: `--offline`, `--refresh`, the limits.
    public var photos = PhotoFetchSettings()

    /// The default `maxPixels`: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// The default `jobs`: one more than the CPUs this process may use (``UsableCPUs``). A worker's
    /// card alternates between libvips and Swift stages with hand-offs between threads, so one
    /// worker per CPU leaves CPUs idle (bench/README.md, "Workers and the allocator", has the measurement).
    public static let defaultJobs = UsableCPUs.current.count + 1

    public init(catalog: URL, output: URL, cache: URL?, jobs: Int = BuildRequest.defaultJobs,
                maxPixels: Int = BuildRequest.defaultMaxPixels, overrides: StyleOverrides = StyleOverrides(),
                lockTimeout: Duration? = nil, shard: Shard? = nil, strict: Bool = false,
                cacheMaxBytes: Int64? = nil, xcassets: URL? = nil) {
        self.catalog = catalog
        self.output = output
        self.cache = cache
        self.jobs = jobs
        self.maxPixels = maxPixels
        self.overrides = overrides
        self.lockTimeout = lockTimeout
        self.shard = shard
        self.strict = strict
        self.cacheMaxBytes = cacheMaxBytes
        self.xcassets = xcassets
    }

    /// The catalog as this request builds it: loaded with `overrides` as its last style layer, then
    /// validated; with ``strict``, one lacking a translation is refused. Throws ``CatalogError``.
    public func loadCatalog() throws -> Catalog {
        let loaded = try CatalogLoader.load(from: catalog, overrides: overrides)
        if strict, case let missing = loaded.missingTranslations, !missing.isEmpty {
            throw CatalogError.untranslated(file: catalog, missing: missing)
        }
        return loaded
    }

    /// Whether the build writes the preview gallery: asked for, and not a shard's partial output
    /// (`merge` writes the whole catalog's).
    var writesGallery: Bool { gallery && shard == nil }

    /// Everything but the catalog and its files that decides what a build writes: the overrides,
    /// the generator, the manifest's schema and the renderer. Shards merge only when theirs agree.
    var settingsDigest: ContentDigest {
        var settings = Fingerprint(domain: "build-settings")
        settings.add("scales", overrides.scales.map { $0.map(String.init).joined(separator: ",") })
        settings.add("format", overrides.format?.rawValue)
        settings.add("generator", Builder.generator)
        settings.add("manifestSchema", CardManifest.schemaVersion)
        settings.add("renderer", RendererVersion.digest)
        return settings.digest
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
    /// Photos downloaded so far, for a catalog that gives photos as URLs.
    case downloaded(Int)
    /// Something went wrong that costs time but not cards, such as an object the remote cache
    /// sent damaged, or the remote cache given up on.
    case warning(String)
}
