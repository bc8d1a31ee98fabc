import ArgumentParser

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render every card of the catalog that is not already up to date."
    )

    @OptionGroup var options: BuildOptions

    func run() async throws {
        let report = try await BuildRun(options: options, console: Console(verbosity: options.verbosity),
                                        interruption: Interruption()).run()
        if !report.failures.isEmpty {
            throw ExitCode(ExitStatus.failures)
        }
    }
}
