import ArgumentParser
import CardBakeFiles
import Foundation

/// A size on the command line: bytes, or a number with a 1024-based suffix (`K`, `M`, `G`, `T`,
/// either case: `500M` is 500 × 1024² bytes).
enum SizeArgument {
    static func bytes(parsing text: String, source: String) throws -> Int64 {
        let multipliers: [Character: Int64] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40]
        var digits = Substring(text)
        var multiplier: Int64 = 1
        if let last = digits.last?.lowercased().first, let found = multipliers[last] {
            multiplier = found
            digits = digits.dropLast()
        }
        guard let number = Int64(digits), number >= 0, number <= Int64.max / multiplier else {
            throw ValidationError("\(source) takes a size in bytes, or with a 1024-based suffix K, M, G or T "
                                  + "(such as 500M or 2G); found \"\(text)\".")
        }
        return number * multiplier
    }
}

/// A duration on the command line: a number of days, hours, minutes or seconds (`30d`, `12h`, `90m`, `45s`).
enum DurationArgument {
    static func seconds(parsing text: String, source: String) throws -> Int64 {
        guard let seconds = Duration.seconds(parsingCountAndUnit: text) else {
            throw ValidationError("\(source) takes a duration with a unit d, h, m or s (such as 30d, 12h or 90m); "
                                  + "found \"\(text)\".")
        }
        return seconds
    }
}

/// The cache size limit a build collects down to: `--cache-max-size`, else `CARDBAKE_CACHE_MAX_SIZE`.
struct CacheSizeLimitOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "After a build that ran its stages, remove the least recently used cache entries until the cache holds at most this much.",
        discussion: "Bytes, or with a 1024-based suffix K, M, G or T (500M, 2G). Default: $CARDBAKE_CACHE_MAX_SIZE, else no limit.",
        valueName: "size"))
    var cacheMaxSize: String?

    func validate() throws {
        _ = try maxBytes()
    }

    /// The limit in bytes; nil when neither the flag nor the environment sets one.
    func maxBytes() throws -> Int64? {
        if let cacheMaxSize {
            return try SizeArgument.bytes(parsing: cacheMaxSize, source: "--cache-max-size")
        }
        guard let value = ProcessInfo.processInfo.environment["CARDBAKE_CACHE_MAX_SIZE"], !value.isEmpty else { return nil }
        return try SizeArgument.bytes(parsing: value, source: "CARDBAKE_CACHE_MAX_SIZE")
    }
}
