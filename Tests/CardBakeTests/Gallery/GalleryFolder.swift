import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeFiles
@testable import CardBakeManifest

/// A gallery written into a folder by ``GalleryWriter`` from cards made in a test, with no build.
struct GalleryFolder {
    let directory: URL
    /// One action cache for every write, as a build's cache would be.
    private let records = RecordCache(store: InMemoryArtifactStore())

    init(_ directory: URL) {
        self.directory = directory
    }

    var page: URL { directory.appendingPathComponent(Gallery.pageName) }

    /// Writes the gallery of `cards`, standing for a manifest whose digest is that of the cards'
    /// lines; returns the files with their digests, as the writer does.
    @discardableResult
    func write(_ cards: [GalleryCard]) async throws -> [(file: String, digest: ContentDigest)] {
        try await write(GalleryCards(cards))
    }

    @discardableResult
    func write(_ cards: GalleryCards) async throws -> [(file: String, digest: ContentDigest)] {
        var manifest = ContentDigest.Hasher()
        try cards.forEach { manifest.update($0) }
        let folder = OutputFolder(directory: directory, statCache: StatCache(loadingFrom: nil))
        let writer = GalleryWriter(folder: folder, records: records, journal: .output(folder, writing: { [] }))
        defer { writer.journal.finish() }
        return try await writer.update(cards: cards, generator: "cardbake test", digest: manifest.digest)
    }

    /// The chunk files in the folder, relative to it.
    var chunkFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(GalleryChunk.folder).path)) ?? []
        return names.sorted().map { "\(GalleryChunk.folder)/\($0)" }
    }

    /// Each gallery file's inode and modification time, by path: what changes when it is written again.
    var identities: [String: [AnyHashable]] {
        Dictionary(uniqueKeysWithValues: ([Gallery.pageName, Gallery.versionName] + chunkFiles).compactMap { file in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
            else { return nil }
            return (file, [attributes[.systemFileNumber] as? AnyHashable, attributes[.modificationDate] as? AnyHashable].compactMap { $0 })
        })
    }
}

extension GalleryCard {
    /// A 1 × 1 GIF of the generated cards' placeholder colour.
    static let generatedDataURL = "data:image/gif;base64,R0lGODlhAQABAIAAAE1TYwAAACwAAAAAAQABAAACAkQBADs="

    /// Card `index` of a generated catalog, id `card-00042`: 320 pt wide, one of 40 heights from
    /// 380 to 770 pt (``generatedHeight(_:)``), its bitmap the shared `image`.
    static func generated(_ index: Int, title: String? = nil, image: String = "cards/shared@1x.png") -> GalleryCard {
        GalleryCard(id: generatedID(index), title: title ?? "Card \(index) of the generated catalog", width: 320,
                    height: generatedHeight(index), color: "#4D5363", thumbhash: nil, dataURL: generatedDataURL,
                    images: [(1, image)])
    }

    static func generatedID(_ index: Int) -> String {
        "card-" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index)
    }

    /// Spread over the cards as the heights of a catalog of varied photos and texts are.
    static func generatedHeight(_ index: Int) -> Double {
        Double(380 + index * 7919 % 40 * 10)
    }
}
