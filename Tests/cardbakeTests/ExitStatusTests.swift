import Foundation
import Testing

/// Every failure ends with cardbake's own `error:` lines and its documented status, never the
/// argument parser's `Error:`.
@Suite("Exit statuses and messages")
struct ExitStatusTests {
    static let oneCard = [CardSpec("good-coffee", image: "coffee.jpg")]

    /// A sandbox with a one-card catalog.
    static func withCatalog(_ body: (Sandbox) throws -> Void) throws {
        try Sandbox.with { sandbox in
            try sandbox.copyImage("coffee.jpg")
            try sandbox.writeCatalog(oneCard)
            try body(sandbox)
        }
    }

    static func expectOneError(_ result: RunResult, status: Int32, containing parts: [String],
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, result.comment, sourceLocation: sourceLocation)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(!errors.isEmpty, result.comment, sourceLocation: sourceLocation)
        for part in parts {
            #expect(errors.contains { $0.contains(part) }, "no error line mentions \(part)\n\(result)",
                    sourceLocation: sourceLocation)
        }
        #expect(!result.stderr.contains("Error:"), "the argument parser's Error: line\n\(result)",
                sourceLocation: sourceLocation)
    }

    @Test("A --report path that cannot be written: exit 1, naming the path and the flag, after the summary")
    func unwritableReport() throws {
        try Self.withCatalog { sandbox in
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "catalog.json/report.json"])
            Self.expectOneError(result, status: 1, containing: ["catalog.json/report.json", "--report"])
            #expect(Summary.find(in: result)?.rendered == 1, result.comment)
        }
    }

    @Test("A cache folder of another layout: exit 2, saying how to start again", arguments: ["build", "check"])
    func incompatibleCache(command: String) throws {
        try Self.withCatalog { sandbox in
            try sandbox.write("cardbake-cache 0\n", to: ".cardbake/VERSION")
            let result = try sandbox.run([command, "catalog.json", "--output", "OUT"])
            Self.expectOneError(result, status: 2, containing: [".cardbake", "clean --only cache"])
        }
    }

    @Test("An output path that is a file: exit 1, naming it")
    func outputIsAFile() throws {
        try Self.withCatalog { sandbox in
            try sandbox.write("not a folder", to: "OUT")
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT/sub"])
            Self.expectOneError(result, status: 1, containing: ["OUT/sub"])
        }
    }

    @Test("A negative --jobs or --max-pixels says it must be positive: exit 2", arguments: ["--jobs", "--max-pixels"])
    func negativeNumbers(flag: String) throws {
        try Self.withCatalog { sandbox in
            let result = try sandbox.run(["build", "catalog.json", flag, "-2"])
            #expect(result.status == 2, result.comment)
            Self.expectOneError(result, status: 2, containing: ["\(flag) takes a positive number"])
            #expect(result.stderr.contains("Usage: cardbake build"), result.comment)
            #expect(!sandbox.exists("Output"))
        }
    }

    @Test("One card is counted in the singular")
    func singular() throws {
        try Self.withCatalog { sandbox in
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT"])
            #expect(result.status == 0, result.comment)
            #expect(result.stdoutLines.contains { $0.hasPrefix("1 card: 1 rendered, 0 cached, 0 failed in ") },
                    result.comment)
            #expect(result.stderr.contains("1 card: 1 to render, 0 cached, 0 failed"), result.comment)
            // The progress line, and the verbose lines, count one card and one job in the singular too
            #expect(result.stderr.contains("100% (1/1 card)"), result.comment)
            let verbose = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--jobs", "1", "--verbose"])
            #expect(verbose.stderr.contains("; 1 job\n"), verbose.comment)
            let stats = try sandbox.run(["cache", "stats"])
            #expect(stats.stdout.contains("action results: 1 hit, 0 misses"), stats.comment)
            #expect(!(result.stderr + verbose.stderr + stats.stdout).contains("1 cards"))
        }
    }

    @Test("clean takes -o/--output like build and check")
    func cleanOutput() throws {
        try Self.withCatalog { sandbox in
            try #require(try sandbox.run(["build", "catalog.json", "-o", "OUT"]).status == 0)
            let result = try sandbox.run(["clean", "--only", "output", "--output", "OUT"])
            #expect(result.status == 0, result.comment)
            #expect(!sandbox.exists("OUT/manifest.json") && sandbox.exists(".cardbake"))
        }
    }
}
