import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import CardBakeRender
import Foundation
import Synchronization

/// Text coverage kept from one build to the next: laying a text out to learn which font files draw
/// it is most of planning, and titles and descriptions seldom change.
///
/// The key covers the text, its font (family, file and the file's digest), its size, the renderer
/// and every installed font file (``FontResolver/installedFonts()``), so a font installed, removed
/// or replaced lays the text out again. The records are kept in an index of their own, read once per
/// build (``CacheWorkspace/textCoverage``), so planning's worker threads never wait on a disk; what
/// planning had to lay out joins it after the plan stage (``keep()``), and the index the build saves
/// holds the texts it planned.
final class TextCoverageMemo: Sendable {
    private let store: IndexedArtifactStore
    /// The installed font files' digest the coverage is for.
    let installedFonts: ContentDigest
    private let laidOut = Mutex<[ContentDigest: TextCoverageRecord]>([:])

    init(store: IndexedArtifactStore, installedFonts: ContentDigest) {
        self.store = store
        self.installedFonts = installedFonts
    }

    /// What ``FontResolver/coverage(of:in:language:size:)`` answers, from the index when it holds the text's record.
    func coverage(of text: String, in font: ResolvedFont, language: LocaleTag? = nil, size: Double,
                  fonts: FontResolver) throws(RenderError) -> TextCoverage {
        let key = key(of: text, in: font, language: language, size: size)
        if let bytes = store.indexedActionResult(for: key), let record = TextCoverageRecord(cacheBytes: bytes) {
            return try fonts.coverage(drawnFrom: record.files.map { URL(fileURLWithPath: $0) }, missing: record.missing)
        }
        let coverage = try fonts.coverage(of: text, in: font, language: language, size: size)
        laidOut.withLock { $0[key] = TextCoverageRecord(coverage) }
        return coverage
    }

    /// Moves the coverage planning laid out into the index.
    func keep() {
        let records = laidOut.withLock { laidOut in
            defer { laidOut = [:] }
            return laidOut
        }
        for (key, record) in records {
            store.keepInIndex(record.cacheBytes, for: key)
        }
    }

    /// The action-cache key of `text` (in `language`) in `font` at `size` points with the installed
    /// fonts the memo was made with.
    func key(of text: String, in font: ResolvedFont, language: LocaleTag? = nil, size: Double) -> ContentDigest {
        var key = Fingerprint(domain: "text-coverage")
        key.add("renderer", RendererVersion.digest)
        key.add("installedFonts", installedFonts)
        key.add("font", font)
        key.add("size", size)
        key.add("text", text)
        if let language {
            key.add("language", language.description)
        }
        return key.digest
    }
}
