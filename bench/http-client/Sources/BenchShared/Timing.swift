import Foundation

/// The GETs each client is timed on: `count` requests of `path` under `base`, `width` at a time.
public struct GetRun: Sendable {
    public let label: String
    public let path: String
    public let count: Int
    public let width: Int

    public init(label: String, path: String, count: Int, width: Int) {
        self.label = label
        self.path = path
        self.count = count
        self.width = width
    }

    /// The standard runs: 1,000 small objects one at a time and 8 at a time, and 20 large ones.
    public static let standard = [
        GetRun(label: "1000 GETs of 1 KB, sequential", path: "cas/small", count: 1000, width: 1),
        GetRun(label: "1000 GETs of 1 KB, 8 at a time", path: "cas/small", count: 1000, width: 8),
        GetRun(label: "20 GETs of 8 MB, 4 at a time", path: "cas/large", count: 20, width: 4),
    ]
}

/// Runs every standard run with `get` (which returns the body's length) and prints one line per
/// run: the client, the run, the wall time in ms. Exits 1 if a body has the wrong length.
public func measure(client: String, base: String, expected: [String: Int],
                    get: @escaping @Sendable (String) async throws -> Int) async throws {
    for run in GetRun.standard {
        let url = base + "/" + run.path
        _ = try await get(url)  // warm the connection
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            func next() {
                group.addTask {
                    let length = try await get(url)
                    guard length == expected[run.path] else {
                        FileHandle.standardError.write(Data("\(client): \(url) gave \(length) bytes\n".utf8))
                        exit(1)
                    }
                }
                started += 1
            }
            while started < min(run.width, run.count) { next() }
            while try await group.next() != nil {
                if started < run.count { next() }
            }
        }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        print("\(client)\t\(run.label)\t\(String(format: "%.0f", ms)) ms")
    }
}

/// The base URL and expected sizes from the command line: `BASE SMALL_BYTES LARGE_BYTES`.
public func arguments() -> (base: String, expected: [String: Int]) {
    let args = CommandLine.arguments
    return (args[1], ["cas/small": Int(args[2])!, "cas/large": Int(args[3])!])
}
