import CardBakeCache
import CardBakeCatalog
import CardBakeFetch
import CardBakeFiles
import Foundation

/// The photos of a build's cards that the catalog gives as URLs, fetched (or found in the cache)
/// before the stages, which then see files in the content store like any other image.
struct CardPhotos: Sendable {
    /// Why a URL's photo cannot be had, for the planner to fail its cards with.
    let failures: [String: PhotoFetchFailure]
    /// What the build fetched, for its report.
    let traffic: PhotoTraffic
    /// Until when every photo had needs no revalidation (`maxAge` after the oldest was confirmed); nil
    /// when one could not be had. A build may skip parsing the catalog until then (``CatalogOutline``).
    let freshUntil: Date?

    /// Resolves the URLs of `catalog`'s cards to files; a card whose photo cannot be had keeps its
    /// URL unresolved, and its failure is in ``failures``. Warns once when cached copies stand in
    /// for photos that could not be revalidated.
    static func resolve(_ catalog: inout Catalog, in workspace: CacheWorkspace, request: BuildRequest,
                        events: @escaping @Sendable (BuildEvent) -> Void) async -> CardPhotos? {
        let urls = Set(catalog.cards.lazy.compactMap(\.imageURL))
        guard !urls.isEmpty else { return nil }
        let (disk, statCache) = (workspace.disk, workspace.statCache)
        // A photo's blob found intact by the stat cache, which the planner then asks again for free,
        // rather than hashed by the store on every build.
        let fetcher = PhotoFetcher(store: workspace.store, scratchDirectory: workspace.scratchDirectory,
                                   settings: request.photos, maxPixels: request.maxPixels,
                                   bytesFromRemoteLater: request.remoteCache != nil) { digest in
            let path = disk.blobURL(for: digest).fileSystemPath
            return (try? statCache.digest(ofFileAtPath: path)) == digest ? path : nil
        }
        let maxAge = maxAge(of: catalog)
        let results = await fetcher.fetch(urls, maxAge: maxAge) {
            events(.downloaded($0))
        }
        await fetcher.shutDown()
        let stale = results.values.compactMap { try? $0.get().warning }.sorted()
        if let first = stale.first {
            events(.warning(stale.count == 1 ? first
                                : "\(stale.count) photos could not be revalidated and their cached copies are used; the first: \(first)"))
        }
        var uses: [PhotoTraffic.Use] = []
        let failures = use(results, photo: { $0 }, in: &catalog) { card, photo in
            uses.append(.init(id: card.id, index: card.index, source: photo.source))
        }
        let downloaded = results.values.reduce(0) { $0 + ((try? $1.get().downloadedBytes) ?? 0) }
        let freshUntil = failures.isEmpty ? results.values.compactMap({ try? $0.get().freshUntil(maxAge: maxAge) }).min() : nil
        return CardPhotos(failures: failures, traffic: PhotoTraffic(cards: uses, downloadedBytes: downloaded,
                                                                    requests: fetcher.requestsSent),
                          freshUntil: freshUntil)
    }

    /// For `check`, which never downloads: `catalog`'s URLs resolved from the cache's records alone,
    /// each once; a URL never fetched is a failure, and `stale` hears of each card whose record is
    /// older than `maxAge`.
    static func resolveFromCache(_ catalog: inout Catalog, store: any ArtifactStoring, request: BuildRequest,
                                 stale: (Card) -> Void) async -> [String: PhotoFetchFailure] {
        let urls = Set(catalog.cards.lazy.compactMap(\.imageURL))
        guard !urls.isEmpty else { return [:] }
        let fetcher = PhotoFetcher(store: store, scratchDirectory: FileManager.default.temporaryDirectory,
                                   settings: request.photos, maxPixels: request.maxPixels)
        var results: [String: Result<(photo: FetchedPhoto, isStale: Bool), PhotoFetchFailure>] = [:]
        for url in urls {
            results[url] = await fetcher.cached(url, maxAge: maxAge(of: catalog)).map { .success($0) }
                ?? .failure(PhotoFetchFailure(url, "never fetched; check makes no request (a build fetches it)"))
        }
        return use(results, photo: \.photo, in: &catalog) { card, cached in
            if cached.isStale { stale(card) }
        }
    }

    /// How long a fetched photo of `catalog` is used before it is revalidated.
    private static func maxAge(of catalog: Catalog) -> Duration {
        catalog.remoteImages?.maxAge ?? RemoteImagePolicy.defaultMaxAge
    }

    /// Points each card whose photo is a URL at the photo `results` has for it (`photo`), calling `each`
    /// with the card and what was had, in catalog order; the failures, by URL.
    private static func use<Had>(_ results: [String: Result<Had, PhotoFetchFailure>], photo: (Had) -> FetchedPhoto,
                                 in catalog: inout Catalog, each: (Card, Had) -> Void) -> [String: PhotoFetchFailure] {
        var failures: [String: PhotoFetchFailure] = [:]
        for index in catalog.cards.indices {
            guard let url = catalog.cards[index].imageURL, let result = results[url] else { continue }
            switch result {
            case .success(let had):
                let fetched = photo(had)
                catalog.cards[index].useFetchedImage(atPath: fetched.path, digest: fetched.digest)
                each(catalog.cards[index], had)
            case .failure(let failure):
                failures[url] = failure
            }
        }
        return failures
    }
}

/// What a build did for the photos its catalog gives as URLs.
public struct PhotoTraffic: Codable, Sendable, Equatable {
    /// One card's photo and where it came from.
    public struct Use: Codable, Sendable, Equatable {
        public var id: String
        public var index: Int
        public var source: PhotoSource
    }

    /// The cards whose photo was had, in catalog order (a failed one is in the report's failures).
    public var cards: [Use]
    public var downloadedBytes: Int
    /// HTTP requests sent, retries included.
    public var requests: Int

    public func count(_ source: PhotoSource) -> Int { cards.filter { $0.source == source }.count }

    /// `photos: 3 fetched (1.2 MB), 2 revalidated, 95 cached`.
    public var summary: String {
        var parts = ["\(count(.fetched)) fetched (\(downloadedBytes.byteSize))",
                     "\(count(.revalidated)) revalidated", "\(count(.cached)) cached"]
        if count(.stale) > 0 { parts.append("\(count(.stale)) from the cache after a failed revalidation") }
        return "photos: " + parts.joined(separator: ", ")
    }
}

extension PhotoSource: Codable {}
