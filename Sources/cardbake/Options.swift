import ArgumentParser
import CardBake
import CardBakeCatalog
import CardBakeFiles
import Foundation

/// Where the catalog is and where its cards go.
struct LocationOptions: ParsableArguments {
    @Argument(help: "The catalog file.", completion: .file(extensions: ["json"]))
    var catalog: String = "Input/catalog.json"

    @OptionGroup var output: OutputOption

    /// Relative paths stay relative, so messages name the catalog as the user gave it.
    var catalogURL: URL { URL(fileURLWithPath: catalog) }
}

/// The output folder, `-o/--output` in every command.
struct OutputOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "The folder for cards/ and manifest.json.", completion: .directory)
    var output: String = "Output"

    var url: URL { URL(fileURLWithPath: output).standardizedFileURL }
}

/// The Xcode asset catalog kept in line with the output folder, `--xcassets` in `build` and `check`.
struct AssetCatalogOption: ParsableArguments {
    @Option(help: ArgumentHelp("Also write an Xcode asset catalog here (such as Output/Cards.xcassets): one image set per card.",
                               valueName: "path"), completion: .directory)
    var xcassets: String?

    var url: URL? { xcassets.map { URL(fileURLWithPath: $0).standardizedFileURL } }
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

/// How long to wait for another cardbake that uses the same output or cache folder.
struct LockOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Give up (exit 3) after waiting this many seconds for another cardbake using the same output or cache folder.",
        discussion: "Default: wait as long as it takes. 0 gives up at once.", valueName: "seconds"))
    var lockTimeout: Double?

    func validate() throws {
        if let lockTimeout, !(lockTimeout >= 0 && lockTimeout.isFinite) {
            throw ValidationError("--lock-timeout takes a number of seconds, 0 or more.")
        }
    }

    /// The wait allowed; nil waits as long as it takes.
    var timeout: Duration? { lockTimeout.map(Duration.seconds) }
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

/// Overrides of the catalog's style that change what a build produces; `check` takes them too,
/// so it compares against the same build.
struct RenderOverrideOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Scales to render, overriding the catalog (different integers, each 1–4).",
                               valueName: "1,2,3"))
    var scales: String?

    @Option(help: "Output format, overriding the catalog.")
    var format: OutputFormat.Kind?

    func validate() throws {
        _ = try styleOverrides()
    }

    /// The flags as the catalog's last style layer, `--scales` checked by the rule for a catalog's `scales`.
    func styleOverrides() throws -> StyleOverrides {
        do throws(OverrideError) {
            return try StyleOverrides(scales: scales.map(StyleOverrides.scales(parsing:)), format: format)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension OutputFormat.Kind: ExpressibleByArgument {}
