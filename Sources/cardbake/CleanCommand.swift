import ArgumentParser
import CardBake
import CardBakeCatalog
import CardBakeFiles
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
    @OptionGroup var lock: LockOptions

    /// Waits for any other cardbake using the folders to finish, then removes what was asked.
    func run() throws {
        let both = !cache && !output
        let cacheURL = cache || both ? cacheLocation.cacheURL : nil
        let outputURL = output || both ? URL(fileURLWithPath: outputDirectory).standardizedFileURL : nil
        let console = Console()
        let folders = try WorkspaceLock(folders: [cacheURL, outputURL].compactMap { $0 }, mode: .exclusive,
                                        creating: false, timeout: lock.timeout, cancellation: Cancellation(),
                                        waiting: console.waiting)
        defer { folders.release() }
        if let cacheURL {
            try OutputCleaner.removeCache(at: cacheURL)
        }
        if let outputURL {
            try OutputCleaner.removeOutput(at: outputURL)
        }
    }
}
