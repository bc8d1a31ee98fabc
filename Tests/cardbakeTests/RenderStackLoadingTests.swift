import Foundation
import Testing

/// Whether the binary under test was built with the render stack bound at first use (Package.swift).
private let bindsRenderStackAtFirstUse = (ProcessInfo.processInfo.environment["PKG_CONFIG_PATH"] ?? "")
    .split(separator: ":").contains { $0.hasSuffix("Sources/CRenderStack/pkgconfig") }

/// libvips and Pango are loaded at their first use (`Sources/CRenderStack`): a `check` or no-op
/// build answered by the whole-build record runs without them while the cache's record of the
/// libvips last loaded still holds. Seen through the dynamic loader's own log (`LD_DEBUG=files`).
/// Only where the Makefile built the binary that way (a plain `swift build` links them).
@Suite("Render stack loading", .enabled(if: bindsRenderStackAtFirstUse))
struct RenderStackLoadingTests {
    /// The record a build leaves in the default cache folder.
    private static let record = ".cardbake/libvips"

    /// Runs `arguments` with the loader's log on; whether the process loaded libvips, and the result.
    private func run(_ arguments: [String], in sandbox: Sandbox,
                     environment: [String: String?] = [:]) throws -> (loadedLibvips: Bool, result: RunResult) {
        let result = try sandbox.run(arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let loaded = result.stderr.split(separator: "\n").contains { $0.contains("file=libvips.so") }
        return (loaded, result)
    }

    private func build(in sandbox: Sandbox) throws {
        try sandbox.writeCatalog(threeCards)
        let (loaded, result) = try run(["build", "catalog.json", "--output", "OUT"], in: sandbox)
        try #require(result.status == 0, result.comment)
        try #require(loaded, "a build that renders loads libvips: \(result.comment)")
        try #require(sandbox.exists(Self.record), "the build recorded no libvips")
    }

    @Test("check and a no-op build that find the whole-build record do not load libvips, and say so")
    func upToDateWithoutLibvips() throws {
        try Sandbox.with { sandbox in
            // Given
            try build(in: sandbox)

            // When
            let check = try run(["check", "catalog.json", "--output", "OUT"], in: sandbox)
            let noOp = try run(["build", "catalog.json", "--output", "OUT"], in: sandbox)
            let version = try run(["--version"], in: sandbox)

            // Then
            #expect(check.result.status == 0, check.result.comment)
            #expect(check.result.stderr.contains("OUT is up to date"), check.result.comment)
            #expect(!check.loadedLibvips, check.result.comment)
            #expect(noOp.result.status == 0, noOp.result.comment)
            #expect(noOp.result.stdout.contains("0 rendered"), noOp.result.comment)
            #expect(!noOp.loadedLibvips, noOp.result.comment)
            #expect(version.loadedLibvips, "--version names the libvips it loads: \(version.result.comment)")
        }
    }

    /// Something that makes the record stop holding.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case otherLibraryFile, otherSearchPath, otherVersion, damagedRecord

        var testDescription: String { rawValue }
    }

    @Test("once the record no longer holds, check loads libvips to ask it, and still finds the folder up to date",
          arguments: Change.allCases)
    func recordThatNoLongerHolds(change: Change) throws {
        try Sandbox.with { sandbox in
            // Given
            try build(in: sandbox)
            var record = try #require(try JSONSerialization.jsonObject(with: sandbox.data(Self.record)) as? [String: Any])
            var environment: [String: String?] = [:]
            switch change {
            case .otherLibraryFile:
                var library = try #require(record["library"] as? [String: Any])
                library["inode"] = 1
                record["library"] = library
            case .otherSearchPath:
                environment["LD_LIBRARY_PATH"] = sandbox.url("no-libraries-here").path
            case .otherVersion:
                record["version"] = "0.0.1"
            case .damagedRecord:
                record = [:]
            }
            try sandbox.write(JSONSerialization.data(withJSONObject: record), to: Self.record)

            // When
            let check = try run(["check", "catalog.json", "--output", "OUT"], in: sandbox, environment: environment)

            // Then
            #expect(check.loadedLibvips, check.result.comment)
            // The record's version only names libvips: the cards' own keys come from libvips itself.
            #expect(check.result.status == 0, check.result.comment)
            #expect(check.result.stdout.isEmpty, check.result.comment)
        }
    }

    @Test("a build that loads libvips writes the record again where it no longer holds")
    func buildRewritesTheRecord() throws {
        try Sandbox.with { sandbox in
            // Given a record of another library file, and a card to render
            try build(in: sandbox)
            let recorded = try sandbox.data(Self.record)
            var record = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
            var library = try #require(record["library"] as? [String: Any])
            library["inode"] = 1
            record["library"] = library
            try sandbox.write(JSONSerialization.data(withJSONObject: record), to: Self.record)
            var cards = threeCards
            cards[0].title += " again"
            try sandbox.writeCatalog(cards)

            // When
            let rebuilt = try run(["build", "catalog.json", "--output", "OUT"], in: sandbox)
            let check = try run(["check", "catalog.json", "--output", "OUT"], in: sandbox)

            // Then
            #expect(rebuilt.result.status == 0, rebuilt.result.comment)
            #expect(try sandbox.data(Self.record) == recorded)
            #expect(check.result.status == 0, check.result.comment)
            #expect(!check.loadedLibvips, check.result.comment)
        }
    }
}
