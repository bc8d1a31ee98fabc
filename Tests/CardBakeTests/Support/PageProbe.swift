import Foundation

/// A page loaded in Debian's headless Chromium, driven over the DevTools protocol by
/// `Tests/Browser/page_probe.py` (see its steps there). `make test-deps` installs Chromium.
enum PageProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Browser/page_probe.py")

    /// Loads `page` at `width` x `height` CSS pixels, runs `steps` and returns the values of its `eval:` steps.
    static func run(_ page: URL, width: Int = 1280, height: Int = 1000, steps: [String]) throws -> [Any] {
        let result = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: result) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--size", "\(width)x\(height)", page.absoluteString, result.path] + steps
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "page_probe.py exited \(process.terminationStatus): "
                          + String(decoding: message, as: UTF8.self))
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: result)) as? [String: Any]
        return json?["values"] as? [Any] ?? []
    }
}
