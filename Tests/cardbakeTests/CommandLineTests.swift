import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Testing

/// The command line itself: version, help, usage errors, defaults and verbosity.
@Suite("Command line")
struct CommandLineTests {
    @Test("--version prints the name, version and the versions of libvips and the encoders, and exits 0")
    func version() throws {
        try Sandbox.with { sandbox in
            // When
            let result = try sandbox.run(["--version"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(result.stdout == "\(Builder.versionLine)\n", result.comment)
            #expect(result.stdout.hasPrefix("cardbake 0.1.0 (libvips \(Builder.libvipsVersion), "), result.comment)
            let shape = /cardbake \d+\.\d+\.\d+ \(libvips \d+\.\d+\.\d+, libjpeg-turbo \d+\.\d+\.\d+, libdeflate \d+\.\d+(\.\d+)?\)\n/
            #expect(result.stdout.wholeMatch(of: shape) != nil, result.comment)
        }
    }

    @Test("--help of every command exits 0 and names the command's flags", arguments: [
        ([], ["build", "check", "clean", "merge", "--version", "Exit status", "130", "143"]),
        (["build"], ["--output", "--scales", "--format", "--jobs", "--cache-dir", "--no-cache", "--report",
                     "--max-pixels", "--quiet", "--verbose", "png", "jpeg", "webp", "heic", "avif", "--xcassets",
                     "Input/catalog.json", "--shard", "--no-gallery"]),
        (["merge"], ["<output>", "<shards>", "--lock-timeout", "--quiet", "exit 2"]),
        (["check"], ["--output", "--cache-dir", "<catalog>", "exit 0", "--xcassets", "--no-gallery"]),
        (["clean"], ["--only", "--output", "--cache-dir", "--lock-timeout"]),
    ] as [([String], [String])])
    func help(command: [String], mentions: [String]) throws {
        try Sandbox.with { sandbox in
            // When
            let result = try sandbox.run(command + ["--help"])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(result.stdout.contains("USAGE: cardbake \(command.joined(separator: " "))"), result.comment)
            for flag in mentions {
                #expect(result.stdout.contains(flag), "help of \(command) does not mention \(flag)")
            }
            #expect(sandbox.fileNames(".").isEmpty, "--help wrote \(sandbox.fileNames("."))")
        }
    }

    @Test("A usage error exits 2 with a message naming the problem, and writes nothing", arguments: [
        (["build", "catalog.json", "--jobs", "0"], "--jobs takes a positive number"),
        (["catalog.json", "--jobs", "0"], "--jobs takes a positive number"),
        (["build", "catalog.json", "--scales", "0"], "--scales"),
        (["build", "catalog.json", "--scales", "1,5"], "--scales"),
        (["build", "catalog.json", "--format", "gif"], "'gif'"),
        (["build", "catalog.json", "--quiet", "--verbose"], "--quiet and --verbose"),
        (["check", "catalog.json", "--quiet", "--verbose"], "--quiet and --verbose"),
        (["build", "catalog.json", "--max-pixels", "0"], "--max-pixels"),
        (["build", "catalog.json", "--frobnicate"], "--frobnicate"),
        (["frobnicate", "catalog.json"], "Unexpected argument"),
        (["merge", "OUT"], "Missing expected argument '<shards> ...'"),
    ] as [([String], String)])
    func usageError(arguments: [String], message: String) throws {
        try Sandbox.with { sandbox in
            // Given a valid catalog
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg")])
            let before = sandbox.fileNames(".")

            // When
            let result = try sandbox.run(arguments)

            // Then
            #expect(result.status == 2, result.comment)
            #expect(result.exited, result.comment)
            #expect(result.stderr.contains(message), result.comment)
            #expect(result.stderrLines.first?.hasPrefix("error: ") == true, result.comment)
            #expect(!result.stderr.contains("Error:"), result.comment)
            #expect(result.stdout.isEmpty, result.comment)
            #expect(sandbox.fileNames(".") == before, "a usage error wrote files")
        }
    }

    @Test("build is the default command, and reads Input/catalog.json into Output with the cache in .cardbake")
    func defaults() throws {
        try Sandbox.with { sandbox in
            // Given a catalog where cardbake looks by default
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg")], to: "Input/catalog.json")
            try FileManager.default.moveItem(at: sandbox.url("images"), to: sandbox.url("Input/images"))

            // When cardbake runs without arguments
            let result = try sandbox.run([])

            // Then
            #expect(result.status == 0, result.comment)
            #expect(Summary.find(in: result) == Summary(total: 1, rendered: 1, cached: 0, failed: 0), result.comment)
            #expect(sandbox.exists("Output/manifest.json"))
            #expect(sandbox.exists("Output/cards/coffee@1x.jpg"))
            #expect(sandbox.exists(".cardbake"), "the default cache folder was not created")
        }
    }

    @Test("--quiet prints nothing on success; --verbose prints a line for every card rendered")
    func verbosity() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog([CardSpec("coffee", image: "coffee.jpg"), CardSpec("cat", image: "chelsea.jpg")])

            // When
            let quiet = try sandbox.run(["build", "catalog.json", "--output", "quiet", "--quiet"])
            let verbose = try sandbox.run(["build", "catalog.json", "--output", "verbose", "--verbose", "--no-cache"])

            // Then
            #expect(quiet.status == 0, quiet.comment)
            #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, quiet.comment)
            #expect(sandbox.exists("quiet/manifest.json"))
            #expect(verbose.status == 0, verbose.comment)
            #expect(Summary.find(in: verbose) == Summary(total: 2, rendered: 2, cached: 0, failed: 0), verbose.comment)
            for id in ["coffee", "cat"] {
                #expect(verbose.stderrLines.contains { $0.hasPrefix("rendered \(id) in ") }, verbose.comment)
            }
        }
    }
}
