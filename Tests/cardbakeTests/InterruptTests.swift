import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM during a build: the documented status, nothing half-written, and the next
/// build completes.
@Suite("Interruption")
struct InterruptTests {
    enum Start: String, CustomTestStringConvertible {
        /// No output folder yet: none may appear.
        case fresh
        /// A previous build's output: it must stay exactly as it was.
        case afterPreviousBuild

        var testDescription: String { rawValue }
    }

    /// Twelve cards over three images, each with its own title, at three scales: rendering them one
    /// at a time takes seconds, while the signal is sent within milliseconds of rendering starting.
    static let manyCards: [CardSpec] = ["coffee.jpg", "astronaut.jpg", "chelsea.jpg"].flatMap { image in
        (1...4).map { number in
            let id = "\(image.prefix { $0 != "." })-\(number)"
            return CardSpec(id, image: image, title: "\(image) number \(number)")
        }
    }

    @Test("A signal during a build exits 128 + signal, leaves no partial file, and the next build succeeds",
          arguments: [(SIGINT, Start.fresh), (SIGTERM, Start.afterPreviousBuild),
                      (SIGINT, Start.afterPreviousBuild), (SIGTERM, Start.fresh)])
    func interrupted(signal: Int32, start: Start) throws {
        try Sandbox.with { sandbox in
            // Given
            if start == .afterPreviousBuild {
                try sandbox.writeCatalog(Array(Self.manyCards.prefix(2)), style: ["scales": [1, 2, 3]])
                try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            }
            let previousOutput = sandbox.listing("OUT")
            let previousManifest = try? sandbox.data("OUT/manifest.json")
            try sandbox.writeCatalog(Self.manyCards, style: ["scales": [1, 2, 3]])

            // When the build is signalled once it has planned and started rendering
            let running = try sandbox.start(["build", "catalog.json", "--output", "OUT", "--jobs", "1"])
            let started = running.waitForStderr(containing: "to render")
            running.send(signal)
            let result = try running.wait()

            // Then
            try #require(started, "the build never said what it would render\n\(result)")
            #expect(result.exited, "cardbake was killed by the signal instead of handling it\n\(result)")
            #expect(result.status == 128 + signal, result.comment)
            #expect(result.stderr.contains("interrupted"), result.comment)
            #expect(Summary.find(in: result) == nil, "an interrupted build printed a summary\n\(result)")
            #expect(sandbox.temporaryFiles(".").isEmpty, "left behind: \(sandbox.temporaryFiles("."))")
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            switch start {
            case .fresh:
                #expect(!sandbox.exists("OUT"), "an interrupted first build left OUT: \(sandbox.fileNames("OUT"))")
            case .afterPreviousBuild:
                #expect(try sandbox.data("OUT/manifest.json") == previousManifest)
                #expect(sandbox.listing("OUT") == previousOutput, "the interrupted build changed OUT")
            }

            // When built again without interruption
            let next = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then
            #expect(next.status == 0, next.comment)
            let summary = try #require(Summary.find(in: next), next.comment)
            #expect(summary.total == Self.manyCards.count && summary.failed == 0)
            #expect(summary.rendered > 0, "the interrupted build finished every card: the signal came too late")
            let manifest = try ManifestFile.read(from: sandbox.url("OUT/manifest.json"))
            #expect(manifest.cards.map(\.id) == Self.manyCards.map(\.id))
            #expect(sandbox.fileNames("OUT/cards").count == Self.manyCards.count * 3)
            #expect(sandbox.temporaryFiles(".").isEmpty)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])
            #expect(check.status == 0, check.comment)
        }
    }
}
