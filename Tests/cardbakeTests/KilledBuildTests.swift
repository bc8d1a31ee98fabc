import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` leaves what it leaves; the next build, or clean, finishes the job: no temporary file,
/// exactly the manifest's files in the output folder, and a cache that serves nothing damaged.
@Suite("After kill -9")
struct KilledBuildTests {
    enum Moment: String, CaseIterable, CustomTestStringConvertible {
        /// Once the first card is rendered.
        case whileRendering
        /// Once the last card is rendered: while writing the output, or just after.
        case afterRendering

        var testDescription: String { rawValue }
    }

    @Test("A build killed with kill -9 is completed by the next one, with consistent folders", arguments: Moment.allCases)
    func killed(at moment: Moment) throws {
        try Sandbox.with { sandbox in
            // Given a previous build, and a catalog that adds cards and drops one
            try sandbox.writeCatalog(Array(InterruptTests.manyCards.prefix(3)), style: ["scales": [1, 2]])
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let cards = Array(InterruptTests.manyCards.dropFirst())
            try sandbox.writeCatalog(cards, style: ["scales": [1, 2]])

            // When a build is killed at that moment, then built again
            let running = try sandbox.start(["build", "catalog.json", "--output", "OUT", "--verbose", "--jobs", "1"])
            let last = moment == .whileRendering ? cards.count - 2 : cards.count
            let reached = running.waitForStderr(containing: "rendered \(cards[last - 1].id) ")
            running.send(SIGKILL)
            let killed = try running.wait()
            let next = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then
            #expect(reached, killed.comment)
            #expect(next.status == 0, next.comment)
            #expect(try ManifestFile.read(from: sandbox.url("OUT/manifest.json")).cards.map(\.id) == cards.map(\.id))
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])
            #expect(check.status == 0, check.comment)
        }
    }

    @Test("A --no-cache build killed with kill -9 leaves nothing in TMPDIR, and the next build removes its scratch")
    func killedWithoutCache() throws {
        try Sandbox.with { sandbox in
            // Given a TMPDIR of the test's own, and a build without a cache killed once it rendered a card
            try FileManager.default.createDirectory(at: sandbox.url("tmp"), withIntermediateDirectories: true)
            let environment = ["TMPDIR": sandbox.url("tmp").path]
            let cards = Array(InterruptTests.manyCards.prefix(4))
            try sandbox.writeCatalog(cards)
            let running = try sandbox.start(["build", "catalog.json", "--output", "OUT", "--no-cache", "--verbose", "--jobs", "1"],
                                            environment: environment)
            let reached = running.waitForStderr(containing: "rendered \(cards[0].id) ")
            running.send(SIGKILL)
            let killed = try running.wait()

            // Then
            #expect(reached, killed.comment)
            #expect(sandbox.fileNames("tmp") == [], "left in TMPDIR")

            // When the next build runs, with or without a cache
            let next = try sandbox.run(["build", "catalog.json", "--output", "OUT"], environment: environment)

            // Then the output folder holds the manifest's files and nothing else
            #expect(next.status == 0, next.comment)
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(sandbox.fileNames("tmp") == [], "left in TMPDIR")
        }
    }

    /// Leaves in OUT what a build of `threeCards` killed while writing the output would: the file of
    /// a card it added, temporary files, and its note of the files it was writing.
    func leaveKilledBuild(in sandbox: Sandbox) throws {
        try sandbox.write(sandbox.data("OUT/cards/zeta-coffee@1x.jpg"), to: "OUT/cards/mid-cat@1x.jpg")
        try sandbox.write("partial", to: "OUT/cards/.tmp-4242-1f")
        try sandbox.write("partial", to: "OUT/.tmp-4242-2e")
        try sandbox.write(threeCards.map { "cards/\($0.id)@1x.jpg\n" }.sorted().joined(), to: "OUT/.cardbake-unfinished")
    }

    @Test("The next build removes what a build killed while writing the output left, and no file of the user's")
    func outputLeftovers() throws {
        try Sandbox.with { sandbox in
            // Given a build of two cards, what a killed build of three left, and a file of the user's
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            try leaveKilledBuild(in: sandbox)
            try sandbox.write("mine", to: "OUT/cards/ghost@1x.png")

            // When the two cards are built again
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])

            // Then the third card's file, the temporary files and the note are gone; the user's file stays
            #expect(result.status == 0, result.comment)
            #expect(FolderAudit.output(sandbox.url("OUT"), foreign: ["cards/ghost@1x.png"]) == [])
            #expect(try sandbox.data("OUT/cards/ghost@1x.png") == Data("mine".utf8))
        }
    }

    @Test("clean --output removes what a killed build left too, and no file of the user's")
    func cleanAfterKilledBuild() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Array(threeCards.prefix(2)))
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            try leaveKilledBuild(in: sandbox)
            try sandbox.write("mine", to: "OUT/notes.txt")

            // When
            let result = try sandbox.run(["clean", "--only", "output", "-o", "OUT"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(sandbox.fileNames("OUT") == ["notes.txt"])
        }
    }
}
