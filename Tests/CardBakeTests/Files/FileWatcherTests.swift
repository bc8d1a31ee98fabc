@testable import CardBakeFiles
import Foundation
import Testing

/// `FileWatcher` with inotify and with its polling fallback: what counts as a change, and bursts.
@Suite("File watcher")
struct FileWatcherTests {
    enum Mechanism: String, CaseIterable { case inotify, polling }

    /// A folder with `watched.txt` and `other.txt`, and a watcher of the first.
    struct Setup {
        let folder: URL
        let watched: URL
        let other: URL
        let watcher: FileWatcher

        init(_ mechanism: Mechanism) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            watched = folder.appendingPathComponent("watched.txt")
            other = folder.appendingPathComponent("other.txt")
            try Data("one".utf8).write(to: watched)
            try Data("one".utf8).write(to: other)
            watcher = FileWatcher(files: [watched], pollInterval: .milliseconds(20), useInotify: mechanism == .inotify)
        }

        /// The next change, or nil when none came within `seconds` (not a timing assertion: a change
        /// that should come gets far longer than it needs).
        func nextChange(within seconds: Double = 30) async -> Set<String>? {
            let cancellation = Cancellation()
            let timer = Task {
                try await Task.sleep(for: .seconds(seconds))
                cancellation.cancel()
            }
            defer { timer.cancel() }
            return await watcher.nextChange(quietPeriod: .milliseconds(60), cancellation: cancellation)
        }
    }

    @Test("Says which mechanism it uses", arguments: Mechanism.allCases)
    func mechanism(_ mechanism: Mechanism) throws {
        #expect(try Setup(mechanism).watcher.mechanism.hasPrefix(mechanism.rawValue))
    }

    @Test("A write to a watched file is a change", arguments: Mechanism.allCases)
    func write(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        try Data("two, longer".utf8).write(to: setup.watched)
        #expect(await setup.nextChange() == [setup.watched.path])
    }

    @Test("A new file renamed over a watched one (an editor's save) is a change", arguments: Mechanism.allCases)
    func renamedOver(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        let saved = setup.folder.appendingPathComponent(".watched.txt.swp")
        try Data("saved".utf8).write(to: saved)
        #expect(rename(saved.path, setup.watched.path) == 0)
        #expect(await setup.nextChange() == [setup.watched.path])
        // Still watched after the rename replaced the file.
        try Data("saved again".utf8).write(to: setup.watched)
        #expect(await setup.nextChange() == [setup.watched.path])
    }

    @Test("A file removed is a change", arguments: Mechanism.allCases)
    func removed(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        try FileManager.default.removeItem(at: setup.watched)
        #expect(await setup.nextChange() == [setup.watched.path])
    }

    @Test("Another file in the same folder is not a change", arguments: Mechanism.allCases)
    func otherFile(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        try Data("two, longer".utf8).write(to: setup.other)
        #expect(await setup.nextChange(within: 0.5) == nil)
    }

    @Test("A burst of saves is one change", arguments: Mechanism.allCases)
    func burst(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        for round in 1...5 {
            try Data("round \(round) of saving".utf8).write(to: setup.watched)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await setup.nextChange() == [setup.watched.path])
        #expect(await setup.nextChange(within: 0.5) == nil, "the burst was reported more than once")
    }

    @Test("A change made before waiting is not lost", arguments: Mechanism.allCases)
    func changeBeforeWaiting(_ mechanism: Mechanism) async throws {
        let setup = try Setup(mechanism)
        try Data("two, longer".utf8).write(to: setup.watched)
        try await Task.sleep(for: .milliseconds(100))
        #expect(setup.watcher.pendingChanges() == [setup.watched.path])
    }
}
