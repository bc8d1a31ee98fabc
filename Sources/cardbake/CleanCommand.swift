import ArgumentParser
import CardBake
import Foundation

struct CleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the cache, the files cardbake wrote to the output folder, or both (the default)."
    )

    @Flag(help: "Remove the cache folder.")
    var cache = false

    @Flag(help: "Remove the cards and manifest cardbake wrote (other files in the folder are kept).")
    var output = false

    @Option(name: .customLong("output-dir"), help: "The output folder.")
    var outputDirectory: String = "Output"

    @OptionGroup var cacheLocation: CacheOptions

    func run() throws {
        let both = !cache && !output
        if cache || both {
            try OutputCleaner.removeCache(at: cacheLocation.cacheURL)
        }
        if output || both {
            try OutputCleaner.removeOutput(at: URL(fileURLWithPath: outputDirectory).standardizedFileURL)
        }
    }
}
