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

    /// What `--only` limits a clean to.
    enum Part: String, ExpressibleByArgument, CaseIterable {
        /// The cache folder.
        case cache
        /// The cards and manifest cardbake wrote; other files in the folder are kept.
        case output
    }

    @Option(help: ArgumentHelp("Remove only the cache folder, or only the cards and manifest cardbake wrote "
                               + "(other files in the output folder are kept).", valueName: "cache|output"))
    var only: Part?

    @OptionGroup var output: OutputOption
    @OptionGroup var cacheLocation: CacheOptions
    @OptionGroup var lock: LockOptions

    /// Waits for any other cardbake using the folders to finish, then removes what was asked.
    func run() throws {
        let cacheURL = only != .output ? cacheLocation.cacheURL : nil
        let outputURL = only != .cache ? output.url : nil
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
