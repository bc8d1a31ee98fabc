import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the `cardbake` executable under test is.
///
/// SwiftPM puts it next to the test bundle (`<scratch>/debug/cardbake` beside
/// `<scratch>/debug/cardbakePackageTests.xctest`); `CARDBAKE_E2E_BINARY` overrides the search.
enum CardbakeBinary {
    /// The executable, or nil when it was not built.
    static let url: URL? = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Every place looked at, in order, for the failure message.
    static let candidates: [URL] = {
        var urls: [URL] = []
        if let override = ProcessInfo.processInfo.environment["CARDBAKE_E2E_BINARY"], !override.isEmpty {
            urls.append(URL(fileURLWithPath: override))
        }
        // The test runner's own executable: the .xctest on Linux.
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            urls.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("cardbake"))
        }
        urls.append(Bundle.main.bundleURL.appendingPathComponent("cardbake"))
        urls.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("cardbake"))
        if let first = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: first).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("cardbake"))
        }
        return urls
    }()

    static var notFoundMessage: String {
        "cardbake executable not found; build it first (swift build --build-tests builds it with the tests) "
            + "or set CARDBAKE_E2E_BINARY. Looked at: " + candidates.map(\.path).joined(separator: ", ")
    }

    /// The repository: three levels above this file (Tests/cardbakeTests/Support/).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The demo images, `Input/images` in the repository.
    static var demoImages: URL { repositoryRoot.appendingPathComponent("Input/images") }
    static var demoCatalog: URL { repositoryRoot.appendingPathComponent("Input/catalog.json") }
}
