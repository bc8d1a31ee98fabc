import CardBakeCache
import CardBakeManifest
import Foundation

/// The preview gallery of an output folder: `index.html` and `index-version.js`, both derived from
/// the manifest alone, so the same manifest gives the same bytes.
struct Gallery: Sendable {
    static let pageName = "index.html"
    static let versionName = "index-version.js"
    /// Both files, relative to the output folder.
    static let fileNames = [pageName, versionName]
    /// The page of one sample card: its digest changes with the page's markup, style or script, so
    /// that a new template writes galleries in place again.
    static let templateDigest = ContentDigest.sha256(try! GalleryPage( // An array's cards never throw.
        cards: [GalleryCard(id: "sample", title: "Sample", width: 320, height: 480, color: "#808080",
                            thumbhash: "AAAAAAAA", dataURL: "data:,", images: [(1, "cards/sample@1x.png")])],
        generator: "cardbake", version: ContentDigest.sha256(Data())).html)

    /// `index.html`, written a piece at a time (``GalleryPage/write(to:)``): the page of 10,000 cards is some 15 MB.
    let page: GalleryPage
    /// Names this gallery in `index-version.js`, and keys the page's digest in the action cache.
    let version: ContentDigest

    /// The gallery of `manifest`.
    init(of manifest: CardManifest) throws {
        self.init(of: manifest, digest: try manifest.rootDigest)
    }

    /// The gallery of `manifest`, whose bytes have the SHA-256 `digest`.
    init(of manifest: CardManifest, digest: ContentDigest) {
        self.init(cards: GalleryCards(entries: manifest.cards), generator: manifest.generator,
                  manifestDigest: digest)
    }

    /// The gallery of the manifest of `generator` with `cards`, whose bytes have the SHA-256 `manifestDigest`.
    init(cards: GalleryCards, generator: String, manifestDigest: ContentDigest) {
        version = Self.version(ofManifest: manifestDigest)
        page = GalleryPage(cards: cards, generator: generator, version: version)
    }

    /// `index-version.js` of this gallery.
    var versionScript: Data { Self.versionScript(version) }

    /// The version of the gallery of the manifest whose bytes have the SHA-256 `manifest`: that digest
    /// under this template, known without making the page.
    static func version(ofManifest manifest: ContentDigest) -> ContentDigest {
        var key = Fingerprint(domain: "gallery")
        key.add("template", templateDigest)
        key.add("manifest", manifest)
        return key.digest
    }

    /// `index-version.js`, which the page loads every second to learn whether it is out of date.
    static func versionScript(_ version: ContentDigest) -> Data {
        Data("window.cardbakeGalleryVersion = \"\(version)\";\n".utf8)
    }

    /// Each of this gallery's files that `directory` lacks or holds other bytes for, as `cardbake check` reports it.
    func differences(in directory: URL) throws -> [Checker.Finding] {
        let expected = [(Self.pageName, try ContentDigest.sha256(streaming: page.write(to:))),
                        (Self.versionName, ContentDigest.sha256(versionScript))]
        return expected.compactMap { name, digest in
            guard let found = try? ContentDigest.sha256(ofFileAt: directory.appendingPathComponent(name)) else {
                return Checker.Finding(cardID: name, kind: .missing, reason: "the preview gallery has no \(name)")
            }
            return found == digest ? nil
                : Checker.Finding(cardID: name, kind: .stale, reason: "the preview gallery does not show manifest.json")
        }
    }

    /// Whether the file at `url` is one cardbake wrote as part of a gallery: the version script, or
    /// a page naming cardbake as its generator. Only those are removed.
    static func isGalleryFile(at url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        return url.lastPathComponent == versionName
            ? start.hasPrefix("window.cardbakeGalleryVersion = ")
            : start.hasPrefix("<!DOCTYPE html>") && start.contains("<meta name=\"generator\" content=\"cardbake ")
    }

    /// Removes the gallery files cardbake wrote in `directory`, and nothing else; returns the names removed.
    @discardableResult
    static func remove(in directory: URL) -> [String] {
        fileNames.filter { name in
            let url = directory.appendingPathComponent(name)
            return isGalleryFile(at: url) && (try? FileManager.default.removeItem(at: url)) != nil
        }
    }
}
