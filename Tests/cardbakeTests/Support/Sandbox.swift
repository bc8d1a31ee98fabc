import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fresh temporary folder for one test, removed afterwards.
///
/// `work/` is the current directory of every cardbake run (so the default `.cardbake` cache and
/// `Output` folder land there); the runs' stdout and stderr are kept apart in `logs/` so that
/// listings of `work/` only show what cardbake did.
struct Sandbox {
    /// `<tmp>/cardbake-e2e-XXXXXX`, symbolic links resolved (cardbake prints absolute paths).
    let root: URL
    var work: URL { root.appendingPathComponent("work") }
    var logs: URL { root.appendingPathComponent("logs") }

    private init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("cardbake-e2e-XXXXXX").path
        var bytes = Array(template.utf8CString)
        let path = try bytes.withUnsafeMutableBufferPointer { buffer -> String in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                throw SandboxError("mkdtemp \(template) failed: \(String(cString: strerror(errno)))")
            }
            return String(cString: made)
        }
        root = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    }

    /// Runs `body` with a new sandbox, then removes it whatever happens.
    static func with<T>(_ body: (Sandbox) throws -> T) throws -> T {
        let sandbox = try Sandbox()
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        return try body(sandbox)
    }

    /// A path inside `work/`.
    func url(_ relative: String) -> URL { work.appendingPathComponent(relative) }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url(relative).path) }

    func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    func write(_ data: Data, to relative: String) throws {
        let target = url(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
    }

    func write(_ text: String, to relative: String) throws { try write(Data(text.utf8), to: relative) }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(at: url(relative)) }

    /// Copies a demo image (`Input/images/<name>`) to `work/images/<as ?? name>`.
    func copyImage(_ name: String, as target: String? = nil) throws {
        try write(Data(contentsOf: CardbakeBinary.demoImages.appendingPathComponent(name)),
                  to: "images/\(target ?? name)")
    }

    /// Writes a catalog of `cards`, each with its own image copied from the demo images.
    /// `style` is the catalog's style block; the default renders one scale, which keeps tests fast.
    func writeCatalog(_ cards: [CardSpec], style: [String: Any]? = ["scales": [1]],
                      to relative: String = "catalog.json") throws {
        // Copies the demo images the cards name, unless already there; other names are left missing.
        for image in Set(cards.map(\.image)) where !exists("images/\(image)") {
            let demo = CardbakeBinary.demoImages.appendingPathComponent(image)
            if FileManager.default.fileExists(atPath: demo.path) {
                try copyImage(image)
            }
        }
        var json: [String: Any] = ["version": 1, "cards": cards.map(\.json)]
        if let style { json["style"] = style }
        try write(JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]), to: relative)
    }

    /// Every file and folder under `relative` (hidden ones included), with its identity and times.
    func listing(_ relative: String) -> [String: FileIdentity] {
        let base = url(relative)
        guard let names = FileManager.default.enumerator(atPath: base.path)?.compactMap({ $0 as? String }) else {
            return [:]
        }
        var result: [String: FileIdentity] = [:]
        for name in names {
            result[name] = FileIdentity(of: base.appendingPathComponent(name))
        }
        return result
    }

    /// Names of every file under `relative`, recursively, sorted.
    func fileNames(_ relative: String) -> [String] { listing(relative).keys.sorted() }

    /// Names of leftover temporary files (cardbake's atomic writes use `.tmp-…`) under `relative`.
    func temporaryFiles(_ relative: String) -> [String] {
        fileNames(relative).filter {
            let name = ($0 as NSString).lastPathComponent
            return name.hasPrefix(".tmp") || name.contains(".tmp")
        }
    }

    // MARK: Running cardbake

    /// Runs cardbake in `work/` and waits for it (at most `timeout`, after which it is killed and
    /// the test fails). `environment` is added to this process's environment without
    /// `CARDBAKE_CACHE_DIR`; a nil value removes a variable.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String?] = [:],
             timeout: TimeInterval = 300) throws -> RunResult {
        let process = try start(arguments, environment: environment)
        return try process.wait(timeout: timeout)
    }

    /// Starts cardbake in `work/` without waiting for it.
    func start(_ arguments: [String], environment: [String: String?] = [:]) throws -> RunningCardbake {
        try RunningCardbake(binary: try Self.binary(), arguments: arguments, directory: work,
                            environment: Self.environment(environment), logs: logs)
    }

    /// The cardbake executable under test; fails the test when it was not built.
    static func binary() throws -> URL {
        try #require(CardbakeBinary.url, Comment(rawValue: CardbakeBinary.notFoundMessage))
    }

    /// This process's environment without `CARDBAKE_CACHE_DIR`, with `changes` applied (nil removes).
    static func environment(_ changes: [String: String?]) -> [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["CARDBAKE_CACHE_DIR"] = nil
        for (name, value) in changes { variables[name] = value }
        return variables
    }
}

struct SandboxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A file's identity and state: rewriting it (even with the same bytes) changes the inode or mtime.
struct FileIdentity: Equatable, CustomStringConvertible {
    var inode: UInt64
    var size: Int64
    var modificationSeconds: Int
    var modificationNanoseconds: Int
    var isDirectory: Bool

    init?(of url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modificationSeconds = Int(info.st_mtim.tv_sec)
        modificationNanoseconds = Int(info.st_mtim.tv_nsec)
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    }

    var description: String {
        "inode \(inode), \(size) bytes, mtime \(modificationSeconds).\(modificationNanoseconds)"
    }
}

/// One card of a catalog written by a test.
struct CardSpec {
    var id: String
    /// A file name in `work/images/`.
    var image: String
    var title: String
    var description: String

    init(_ id: String, image: String, title: String? = nil, description: String? = nil) {
        self.id = id
        self.image = image
        self.title = title ?? "Title of \(id)"
        self.description = description ?? "A short description of the card \(id), long enough to wrap once."
    }

    var json: [String: Any] {
        ["id": id, "image": "images/\(image)", "title": title, "description": description]
    }
}
