import CardBakeCache
import Foundation
@testable import CardBake
@testable import CardBakeManifest
import Testing
import Vips

/// The gallery files as a build writes, checks and removes them.
@Suite("Gallery files", .vips)
struct GalleryWriterTests {
    static func fixture() throws -> BuildFixture {
        try BuildFixture(images: [
            "alpha": try TestImage.blocks(width: 120, height: 80),
            "beta": try TestImage.solid(width: 60, height: 90, [40, 90, 200]),
        ])
    }

    static func request(_ fixture: BuildFixture, gallery: Bool = true) -> BuildRequest {
        var request = BuildRequest(catalog: fixture.catalog, output: fixture.output, cache: fixture.cache, jobs: 2)
        request.gallery = gallery
        return request
    }

    static func file(_ fixture: BuildFixture, _ name: String) -> URL { fixture.output.appendingPathComponent(name) }

    static func identity(_ url: URL) throws -> [FileAttributeKey: AnyHashable] {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return [.systemFileNumber: attributes[.systemFileNumber] as? AnyHashable,
                .modificationDate: attributes[.modificationDate] as? AnyHashable].compactMapValues { $0 }
    }

    /// The gallery's files in the output folder: page, version and chunks, with their inodes and times.
    static func identities(_ fixture: BuildFixture) -> [String: [AnyHashable]] { GalleryFolder(fixture.output).identities }

    /// The text of the output folder's file `name`.
    /// The gallery of `manifest`, the fixture's manifest in place.
    static func gallery(_ fixture: BuildFixture, _ manifest: CardManifest) throws -> Gallery {
        Gallery(of: manifest, digest: try ContentDigest.sha256(ofFileAt: fixture.output.appendingPathComponent(CardManifest.fileName)))
    }

    static func text(_ fixture: BuildFixture, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: Self.file(fixture, name)), as: UTF8.self)
    }

    @Test("A build writes the gallery of its manifest; a rebuild leaves its files untouched; an edit rewrites the page and its chunks")
    func writtenOnlyWhenTheManifestChanges() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let manifest = try #require(fixture.manifest)
        let expected = try Self.gallery(fixture, manifest)
        var chunks: [String: Data] = [:]
        let expectedPage = try expected.make { chunks[$0.file] = $0.bytes }
        #expect(try Data(contentsOf: Self.file(fixture, Gallery.pageName)) == expectedPage.html)
        #expect(try Data(contentsOf: Self.file(fixture, Gallery.versionName)) == expected.versionScript)
        // One chunk of placeholders and files, one of ids and titles, each named by its digest.
        #expect(GalleryFolder(fixture.output).chunkFiles == chunks.keys.sorted() && chunks.count == 2)
        for (file, bytes) in chunks {
            #expect(try Data(contentsOf: Self.file(fixture, file)) == bytes, "\(file)")
        }
        let page = try Self.text(fixture, Gallery.pageName)
        #expect(page.contains("2 cards at 1x, 2x"))
        #expect(page.contains("[320,\(GalleryLine.number(manifest.cards[0].size.height))]"))
        #expect(try Self.text(fixture, Gallery.versionName) == "window.cardbakeGalleryVersion = \"\(expected.version)\";\n")
        #expect(page.contains("data-version=\"\(expected.version)\""))
        // Each card's placeholder is its data URL; no ThumbHash is left for the script to paint.
        let cardChunk = try Self.text(fixture, try #require(expectedPage.chunkFiles.first))
        let dataURL = try #require(manifest.cards[0].placeholder.dataURL)
        #expect(cardChunk.contains("[\"alpha\",\"\(manifest.cards[0].placeholder.color)\",\"\(dataURL)\",null,"
                                   + "\"cards/alpha@1x.jpg\",\"cards/alpha@1x.jpg 1x, cards/alpha@2x.jpg 2x\"]"))

        let before = Self.identities(fixture)
        #expect(before.count == 4)
        try await fixture.build()
        #expect(Self.identities(fixture) == before)

        fixture.cards[1]["title"] = "Beta & <Co>"
        try await fixture.build()
        let after = Self.identities(fixture)
        let written = Set(after.keys).subtracting(before.keys), removed = Set(before.keys).subtracting(after.keys)
        // The title's chunk and the page written again, the chunk before it removed; the card's
        // placeholder, drawn with its title, may have changed its other chunk too.
        #expect(try written.contains { try Self.text(fixture, $0).contains(#"["beta","Beta & <Co>"]"#) }, "\(written)")
        #expect(written.count == removed.count && (1...2).contains(written.count), "\(written), \(removed)")
        #expect(after[Gallery.pageName] != before[Gallery.pageName])
        #expect(try Self.gallery(fixture, try #require(fixture.manifest)).version != expected.version)
    }

    @Test("A gallery deleted or edited is reported by check and written again by the next build, even a no-op one")
    func repaired() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let page = Self.file(fixture, Gallery.pageName)
        let good = try Data(contentsOf: page)
        let chunk = try #require(GalleryFolder(fixture.output).chunkFiles.first)
        let goodChunk = try Data(contentsOf: Self.file(fixture, chunk))
        try FileManager.default.removeItem(at: page)
        try "<p>edited</p>".write(to: Self.file(fixture, Gallery.versionName), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: Self.file(fixture, chunk))
        let findings = try await Checker(request: Self.request(fixture)).run()
        #expect(findings.map(\.description) == [
            "missing: \(chunk): the preview gallery has no \(chunk)",
            "missing: index.html: the preview gallery has no index.html",
            "stale: index-version.js: the preview gallery does not show manifest.json",
        ])
        let report = try await fixture.build()
        #expect(report.cards.allSatisfy { $0.status == .cached })
        #expect(try Data(contentsOf: page) == good)
        #expect(try Data(contentsOf: Self.file(fixture, chunk)) == goodChunk)
        #expect(try await Checker(request: Self.request(fixture)).run().isEmpty)

        // A chunk edited in place: the whole-build shortcut does not take the folder as built.
        try Data("cardbakeGallery.chunk([\n]);\n".utf8).write(to: Self.file(fixture, chunk))
        #expect(try await Checker(request: Self.request(fixture)).run().map(\.description)
                == ["stale: \(chunk): the preview gallery does not show manifest.json"])
        try await fixture.build()
        #expect(try Data(contentsOf: Self.file(fixture, chunk)) == goodChunk)
    }

    @Test("--no-gallery removes the gallery cardbake wrote, and never a page of someone else; clean removes it too")
    func removed() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        _ = try await Builder(request: Self.request(fixture, gallery: false)).run()
        for name in [Gallery.pageName, Gallery.versionName, GalleryChunk.folder] {
            #expect(!FileManager.default.fileExists(atPath: Self.file(fixture, name).path), "\(name)")
        }
        #expect(try await Checker(request: Self.request(fixture, gallery: false)).run().isEmpty)

        let theirs = Data("<!DOCTYPE html><title>My own page</title>".utf8)
        try theirs.write(to: Self.file(fixture, Gallery.pageName))
        _ = try await Builder(request: Self.request(fixture, gallery: false)).run()
        try OutputCleaner.removeOutput(at: fixture.output)
        #expect(try Data(contentsOf: Self.file(fixture, Gallery.pageName)) == theirs)

        try FileManager.default.removeItem(at: Self.file(fixture, Gallery.pageName))
        try await fixture.build()
        try OutputCleaner.removeOutput(at: fixture.output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.output.path) == [])
    }
}
