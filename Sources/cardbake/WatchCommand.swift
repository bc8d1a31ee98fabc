import ArgumentParser
import CardBake
import CardBakeFiles
import Foundation

/// `cardbake watch`: the edit loop. Builds, then rebuilds whenever the catalog, an image or a font
/// file the build read changes.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Build, then rebuild whenever the catalog, an image or a font the cards use changes.",
        discussion: """
            Saves that come in a burst are one rebuild; each rebuild prints one summary line, and the \
            errors of the cards that failed. A catalog that does not validate (saved mid-edit) prints \
            its errors and leaves the last good output in place. A preview gallery open in a browser \
            reloads itself after each rebuild. Ctrl-C stops watching (status 130), leaving nothing half \
            written.
            """
    )

    @OptionGroup var options: BuildOptions

    func run() async throws {
        let console = Console(verbosity: options.verbosity)
        let interruption = Interruption()
        let builds = BuildRun(options: options, console: console, interruption: interruption,
                              memo: RebuildMemo())
        var inputs: Set<URL> = [options.location.catalogURL.standardizedFileURL]
        var watcher = FileWatcher(files: inputs)
        // A first build up to date as a whole starts neither libvips nor Pango: the first edit's rebuild would wait for both.
        Task.detached(priority: .utility) { Builder.warmUp() }
        while true {
            let read = try await buildReportingErrors(builds, console: console) ?? inputs
            if read != inputs {
                // Changes made during the build are in the old watcher; a new file's changes from now on.
                let missed = watcher.pendingChanges()
                inputs = read
                watcher = FileWatcher(files: inputs)
                if !missed.isEmpty { continue }
            }
            console.note("watching \(inputs.count.counting("file")) (\(watcher.mechanism)); Ctrl-C stops")
            guard let changed = await watcher.nextChange(cancellation: interruption.cancellation) else {
                throw Interrupted(folder: options.location.output.output, status: interruption.exitStatus)
            }
            console.note("changed: " + changed.sorted().map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
        }
    }

    /// Runs one build; returns the files it read, or nil when it stopped on an error it printed
    /// (a catalog that does not validate, a folder that cannot be written). Rethrows ``Interrupted``.
    private func buildReportingErrors(_ builds: BuildRun, console: Console) async throws -> Set<URL>? {
        do {
            return try await builds.run().inputs
        } catch let error as Interrupted {
            throw error
        } catch {
            if let message = Failure.report(for: error).message { console.error(message) }
            console.note("the output was left as the last good build wrote it")
            return nil
        }
    }
}
