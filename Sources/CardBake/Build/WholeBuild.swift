import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import CardBakeRender
import Foundation

/// A whole build seen as one action of the action cache, so that a rebuild with nothing changed
/// is answered by `stat`ing files instead of planning every card (as ccache's direct mode answers
/// from a manifest of dependencies, or ninja from its log).
///
/// The key covers everything a build of the catalog reads: the catalog file's path and bytes, the
/// request's overrides, the renderer, libvips, the manifest's schema, the shard, and the digest of each
/// distinct image and font file the cards use, fonts as fontconfig resolves them now, and the
/// installed font files (a fallback for some text may be any of them). The record
/// under the key is the ``outputDigest(manifest:files:)`` of what a build in which every card
/// succeeded left in the output folder. A later build with the same key is up to date when the
/// folder, read through the stat cache, still has that digest: same manifest, and every card file
/// with the bytes it names.
struct WholeBuild {
    let key: ContentDigest
    /// Whether the build writes the gallery, whose files are made from the manifest (``Gallery/files(in:)``).
    let derivesGallery: Bool

    /// The key of building the catalog `outline` was made of, whose file's bytes have `catalogDigest`,
    /// as `request` asks, with the fonts installed now (``FontResolver/installedFonts()``); nil when the
    /// catalog was not read from a file, or when an image or font cannot be read (planning the cards
    /// reports which).
    init?(_ outline: CatalogOutline, catalogDigest: ContentDigest?, request: BuildRequest, statCache: StatCache,
          fonts: FontResolver, installedFonts: ContentDigest = FontResolver.installedFonts()) {
        guard let catalogDigest else { return nil }
        var key = Fingerprint(domain: "whole-build")
        key.add("catalog", request.catalog.fileSystemPath)
        key.add("catalogBytes", catalogDigest)
        key.add("settings", request.settingsDigest)
        key.add("shard", request.shard?.description)
        key.add("gallery", request.writesGallery ? Gallery.templateDigest : nil)
        derivesGallery = request.writesGallery
        // A card's text may fall back to any installed font (emoji, CJK): which ones only planning finds out.
        key.add("installedFonts", installedFonts)
        for request in outline.fontRequests {
            guard let font = try? fonts.font(for: request) else { return nil }
            key.add("font", request.description)
            key.add("font.file", font.file.fileSystemPath)
            key.add("font.resolved", font)
        }
        for image in outline.imagePaths {
            guard let digest = try? statCache.digest(ofFileAtPath: image) else { return nil }
            key.add("image", image)
            key.add("image.digest", digest)
        }
        self.key = key.digest
    }

    /// The files of an output folder with the digests of their bytes, added in order: each card's
    /// files in catalog order (its scales in its style's order), then the ``derivedFiles(in:pages:)``.
    struct OutputFiles {
        private var fingerprint = Fingerprint(domain: "whole-build-output-files")
        private(set) var count = 0

        mutating func add(_ file: String, digest: ContentDigest) {
            fingerprint.add("file", file)
            fingerprint.add("digest", digest)
            count += 1
        }

        mutating func add(_ files: [(file: String, digest: ContentDigest)]) {
            for (file, digest) in files {
                add(file, digest: digest)
            }
        }

        var digest: ContentDigest { fingerprint.digest }
    }

    /// The digest of an output folder holding a manifest with digest `manifest` and `files`: what a
    /// build that wrote them records under its key.
    static func outputDigest(manifest: ContentDigest, files: OutputFiles) -> ContentDigest {
        var output = Fingerprint(domain: "whole-build-output", version: 2)
        output.add("manifest", manifest)
        output.add("files", files.digest)
        return output.digest
    }

    /// The files made from the cards' entries in `output`, in the order a build adds them after the
    /// cards' own: the gallery's (``Gallery/files(in:)``) when the build writes one, then the
    /// manifest's `pages` sorted.
    func derivedFiles(in output: OutputFolder, pages: Set<String>) -> [String] {
        (derivesGallery ? Gallery.files(in: output.directory) : []) + pages.sorted()
    }

    /// Whether the output folder is as the build recorded under this key left it (`recorded`, the
    /// record under ``key``), with every file's digest looked up through the folder's stat cache on
    /// `pool`. Any file missing or unreadable means it is not.
    func isUpToDate(_ outline: CatalogOutline, in output: OutputFolder, recorded: ContentDigest,
                    pool: WorkerPool) async -> Bool {
        guard let manifestDigest = try? output.statCache.digest(ofFileAt: output.manifestURL),
              let pages = try? ManifestReader(contentsOf: output.manifestURL, digest: ContentDigest.sha256OfData).pageFiles()
        else { return false }
        let derivedFiles = derivedFiles(in: output, pages: pages)
        // A few hundred cards per item: one stat-cache lock per item rather than per file.
        let batches = stride(from: 0, to: outline.cards.count, by: 256).map { start in
            outline.cards[start..<min(start + 256, outline.cards.count)]
        }
        let found = await pool.map(batches) { cards in
            let files = cards.flatMap(outline.files(of:))
            return zip(files, output.statCache.digests(ofFilesAtPaths: files.map(output.path(of:))))
                .map { (file: $0, digest: $1) }
        }
        var files = OutputFiles()
        for case let batch? in found {
            for case let (file, digest?) in batch {
                files.add(file, digest: digest)
            }
        }
        for case let (file, digest?) in zip(derivedFiles, output.statCache.digests(ofFilesAtPaths: derivedFiles.map(output.path(of:)))) {
            files.add(file, digest: digest)
        }
        return files.count == outline.cards.reduce(derivedFiles.count) { $0 + $1.scales.count }
            && Self.outputDigest(manifest: manifestDigest, files: files) == recorded
    }
}
