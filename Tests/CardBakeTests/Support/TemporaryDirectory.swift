import Foundation

/// A fresh directory for one test, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardbake-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ path: String) -> URL { url.appendingPathComponent(path) }
}

/// Runs `body` with a fresh directory that is removed afterwards.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = try TemporaryDirectory()
    return try withExtendedLifetime(directory) { try body(directory.url) }
}

/// Runs async `body` with a new temporary directory, removed afterwards.
func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let directory = try TemporaryDirectory()
    let result = try await body(directory.url)
    withExtendedLifetime(directory) {}
    return result
}
