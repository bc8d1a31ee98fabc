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

    @Test("A build writes the gallery of its manifest; a rebuild leaves both files untouched; an edit rewrites them")
    func writtenOnlyWhenTheManifestChanges() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let manifest = try #require(fixture.manifest)
        let expected = try Gallery(of: manifest)
        #expect(try Data(contentsOf: Self.file(fixture, Gallery.pageName)) == expected.page.html)
        #expect(try Data(contentsOf: Self.file(fixture, Gallery.versionName)) == expected.versionScript)
        let page = String(decoding: try Data(contentsOf: Self.file(fixture, Gallery.pageName)), as: UTF8.self)
        #expect(page.contains("2 cards at 1x, 2x"))
        #expect(page.contains("data-srcset=\"cards/alpha@1x.jpg 1x, cards/alpha@2x.jpg 2x\""))
        #expect(page.contains("width:320px;height:\(GalleryPage.number(manifest.cards[0].size.height))px;background-color:\(manifest.cards[0].placeholder.color)"))
        #expect(String(decoding: try Data(contentsOf: Self.file(fixture, Gallery.versionName)), as: UTF8.self)
                == "window.cardbakeGalleryVersion = \"\(expected.version)\";\n")
        #expect(page.contains("data-version=\"\(expected.version)\""))
        // Each card's placeholder is its data URL, in the page; no ThumbHash is left for the script to paint.
        let dataURL = try #require(manifest.cards[0].placeholder.dataURL)
        #expect(page.contains("background-image:url(&quot;\(dataURL)&quot;)"))
        #expect(!page.contains("data-thumbhash"))

        let before = try Gallery.fileNames.map { try Self.identity(Self.file(fixture, $0)) }
        try await fixture.build()
        #expect(try Gallery.fileNames.map { try Self.identity(Self.file(fixture, $0)) } == before)

        fixture.cards[1]["title"] = "Beta & <Co>"
        try await fixture.build()
        let edited = String(decoding: try Data(contentsOf: Self.file(fixture, Gallery.pageName)), as: UTF8.self)
        #expect(edited.contains("<span>Beta &amp; &lt;Co&gt;</span>"))
        #expect(try Gallery(of: try #require(fixture.manifest)).version != expected.version)
    }

    @Test("A gallery deleted or edited is reported by check and written again by the next build, even a no-op one")
    func repaired() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        let page = Self.file(fixture, Gallery.pageName)
        let good = try Data(contentsOf: page)
        try FileManager.default.removeItem(at: page)
        try "<p>edited</p>".write(to: Self.file(fixture, Gallery.versionName), atomically: true, encoding: .utf8)
        let findings = try await Checker(request: Self.request(fixture)).run()
        #expect(findings.map(\.description) == [
            "missing: index.html: the preview gallery has no index.html",
            "stale: index-version.js: the preview gallery does not show manifest.json",
        ])
        let report = try await fixture.build()
        #expect(report.cards.allSatisfy { $0.status == .cached })
        #expect(try Data(contentsOf: page) == good)
        #expect(try await Checker(request: Self.request(fixture)).run().isEmpty)
    }

    @Test("--no-gallery removes the gallery cardbake wrote, and never a page of someone else; clean removes it too")
    func removed() async throws {
        let fixture = try Self.fixture()
        try await fixture.build()
        _ = try await Builder(request: Self.request(fixture, gallery: false)).run()
        for name in Gallery.fileNames {
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
