import CardBakeCache
import CardBakeManifest
import CardBakeRender

/// What a build or `check` reads before it holds the cache, while it parses the catalog: neither
/// read writes anything, and the stat cache is used only if its file is still the one read once the
/// cache is held (``StatCache/init(loading:)``).
struct ReadAhead: Sendable {
    let savedStatCache: StatCache.SavedFile
    /// ``FontResolver/installedFonts()``.
    let installedFonts: ContentDigest

    init(for request: BuildRequest) async {
        async let installedFonts = FontResolver.installedFonts()
        savedStatCache = StatCache.SavedFile(reading: CacheWorkspace.statCacheFile(for: request))
        self.installedFonts = await installedFonts
    }
}
