import ArgumentParser
import CardBake
import CardBakeFiles
import Foundation

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the output folders of `build --shard 1/N … N/N` into one output folder.",
        discussion: """
            Writes the manifest one build of the whole catalog writes (same bytes) and copies every card; removes \
            files of cards no longer in the catalog. Refuses (exit 2, writing nothing) shards that are missing, \
            given twice, or built from different catalogs or settings.
            """
    )

    @Argument(help: "The output folder to write.", completion: .directory)
    var output: String

    @Argument(help: "The shards' output folders, in any order.", completion: .directory)
    var shards: [String]

    @OptionGroup var lock: LockOptions
    @OptionGroup var verbosity: VerbosityOptions

    func run() async throws {
        let console = Console(verbosity: verbosity)
        let interruption = Interruption()
        let merge = ShardMerge(output: URL(fileURLWithPath: output).standardizedFileURL,
                               shards: shards.map { URL(fileURLWithPath: $0) },
                               lockTimeout: lock.timeout)
        let report: ShardMerge.Report
        do {
            report = try await merge.run(cancellation: interruption.cancellation, waiting: console.waiting)
        } catch is BuildCancelled {
            throw Interrupted(folder: output, status: interruption.exitStatus)
        }
        for file in report.removed where console.verbose {
            console.note("removed \(file)")
        }
        console.result("merged \(shards.count.counting("shard")): \(report.cards.counting("card")) in \(output)")
    }
}
