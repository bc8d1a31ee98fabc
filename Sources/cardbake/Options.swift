import ArgumentParser
import CardBake
import Foundation

/// Where the catalog is and where its cards go.
struct LocationOptions: ParsableArguments {
    @Argument(help: "The catalog file.", completion: .file(extensions: ["json"]))
    var catalog: String = "Input/catalog.json"

    @Option(name: .shortAndLong, help: "The folder for cards/ and manifest.json.")
    var output: String = "Output"

    var catalogURL: URL { URL(fileURLWithPath: catalog).standardizedFileURL }
    var outputURL: URL { URL(fileURLWithPath: output).standardizedFileURL }
}

/// Where the content-hash cache lives.
struct CacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The cache folder.", discussion: "Default: $CARDBAKE_CACHE_DIR, else .cardbake"))
    var cacheDir: String?

    /// The cache folder: the flag, then CARDBAKE_CACHE_DIR, then `.cardbake` in the current folder.
    var cacheURL: URL {
        let path = cacheDir ?? ProcessInfo.processInfo.environment["CARDBAKE_CACHE_DIR"] ?? ".cardbake"
        return URL(fileURLWithPath: path).standardizedFileURL
    }
}

/// How much the command says.
struct VerbosityOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print a line for every card.")
    var verbose = false

    func validate() throws {
        if quiet && verbose {
            throw ValidationError("--quiet and --verbose cannot be used together.")
        }
    }
}
