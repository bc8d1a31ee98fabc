import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two cardbake processes on the same folders never interleave: the second waits for the first
/// (saying so once), or gives up after `--lock-timeout`; both end with consistent folders.
@Suite("Concurrent runs")
struct ConcurrencyTests {
    /// Enough work that a build is still rendering when it is paused.
    static let cards = Array(InterruptTests.manyCards.prefix(6))
    static let build = ["build", "catalog.json", "--output", "OUT"]

    /// Starts a build of `cards` and pauses it (SIGSTOP) once it holds its folders, which it does
    /// from before it says what it will render. The caller must send SIGCONT or SIGKILL.
    func startPausedBuild(in sandbox: Sandbox) throws -> RunningCardbake {
        try sandbox.writeCatalog(Self.cards, style: ["scales": [1, 2]])
        let running = try sandbox.start(Self.build + ["--jobs", "1"])
        let planned = running.waitForStderr(containing: "to render")
        running.send(SIGSTOP)
        #expect(planned, "the first build never said what it would render")
        return running
    }

    /// A build that holds the folders, paused, and a second build of the same catalog that has
    /// said it waits for the first (`waited` is false if it never said so).
    func startWaitingPair(in sandbox: Sandbox) throws -> (first: RunningCardbake, second: RunningCardbake, waited: Bool) {
        let first = try startPausedBuild(in: sandbox)
        let second = try sandbox.start(Self.build)
        return (first, second, second.waitForStderr(containing: "waiting for"))
    }

    func expectConsistent(_ sandbox: Sandbox) {
        #expect(FolderAudit.output(sandbox.url("OUT")) == [])
        #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
    }

    @Test("A second build waits for the first, says once whom it waits for, and finds every card done")
    func secondBuildWaits() throws {
        try Sandbox.with { sandbox in
            // Given a build that holds the folders, when a second build of the same catalog starts,
            // and then the first goes on
            let (first, second, waited) = try startWaitingPair(in: sandbox)
            first.send(SIGCONT)
            let firstResult = try first.wait(), secondResult = try second.wait()

            // Then the second waited for the first to finish, and rendered nothing
            #expect(waited, secondResult.comment)
            let message = "waiting for cardbake (pid \(first.pid)) to finish with \(sandbox.url(".cardbake").path) …"
            #expect(secondResult.stderrLines.filter { $0.contains("waiting for") } == [message], secondResult.comment)
            let count = Self.cards.count
            #expect(Summary.find(in: firstResult) == Summary(total: count, rendered: count, cached: 0, failed: 0),
                    firstResult.comment)
            #expect(Summary.find(in: secondResult) == Summary(total: count, rendered: 0, cached: count, failed: 0),
                    secondResult.comment)
            expectConsistent(sandbox)
        }
    }

    @Test("A build killed with kill -9 leaves no stale lock: the build waiting for it goes on and completes")
    func killedHolder() throws {
        try Sandbox.with { sandbox in
            // Given a build that holds the folders, and a second waiting for it
            let (first, second, waited) = try startWaitingPair(in: sandbox)

            // When the first is killed
            first.send(SIGKILL)
            let firstResult = try first.wait(), secondResult = try second.wait()

            // Then
            #expect(waited, secondResult.comment)
            #expect(!firstResult.exited && firstResult.status == 128 + SIGKILL, firstResult.comment)
            #expect(secondResult.status == 0, secondResult.comment)
            #expect(Summary.find(in: secondResult)?.failed == 0, secondResult.comment)
            expectConsistent(sandbox)
        }
    }

    @Test("clean waits for a running build, which completes, then removes what it wrote")
    func cleanWaitsForBuild() throws {
        try Sandbox.with { sandbox in
            // Given a build that holds the folders
            let build = try startPausedBuild(in: sandbox)

            // When clean starts, and then the build goes on
            let clean = try sandbox.start(["clean", "--output", "OUT"])
            let waited = clean.waitForStderr(containing: "waiting for")
            build.send(SIGCONT)
            let buildResult = try build.wait(), cleanResult = try clean.wait()

            // Then the build was not cut short, and clean removed its output and the cache after it
            #expect(waited, cleanResult.comment)
            #expect(buildResult.status == 0, buildResult.comment)
            #expect(Summary.find(in: buildResult)?.rendered == Self.cards.count, buildResult.comment)
            #expect(cleanResult.status == 0, cleanResult.comment)
            #expect(!sandbox.exists(".cardbake") && !sandbox.exists("OUT/manifest.json") && !sandbox.exists("OUT/cards"))
        }
    }

    @Test("Two builds started together never interleave: one renders every card, the other none")
    func racingBuilds() throws {
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog(Self.cards)

            // When
            let first = try sandbox.start(Self.build), second = try sandbox.start(Self.build)
            let results = [try first.wait(), try second.wait()]

            // Then
            for result in results {
                #expect(result.status == 0, result.comment)
            }
            let rendered = results.compactMap { Summary.find(in: $0)?.rendered }
            #expect(rendered.sorted() == [0, Self.cards.count], "\(results[0])\n\(results[1])")
            expectConsistent(sandbox)
        }
    }

    @Test("--lock-timeout gives up with exit 3, naming the folder and its holder, and changes nothing",
          arguments: [build, ["check", "catalog.json", "--output", "OUT"], ["clean", "--output", "OUT"]])
    func lockTimeout(command: [String]) throws {
        try Sandbox.with { sandbox in
            // Given a built output folder that another process holds
            try sandbox.writeCatalog(Array(Self.cards.prefix(1)))
            try #require(try sandbox.run(Self.build).status == 0)
            let before = sandbox.listing(".")
            let held = try DirectoryLock.acquire(sandbox.url("OUT"), mode: .exclusive, creating: false,
                                                 timeout: .zero, cancellation: Cancellation(), waiting: { _ in })

            // When
            let result = try sandbox.run(command + ["--lock-timeout", "0.2"])
            held?.release()

            // Then
            #expect(result.status == 3, result.comment)
            let error = "error: \(sandbox.url("OUT").path) is in use by "
            #expect(result.stderrLines.contains { $0.hasPrefix(error) && $0.contains("(pid \(getpid()))") }, result.comment)
            #expect(sandbox.listing(".") == before, "\(command[0]) changed files")
        }
    }

    @Test("A build waiting for the folders stops on SIGINT with exit 130, having changed nothing")
    func interruptedWhileWaiting() throws {
        try Sandbox.with { sandbox in
            // Given a built output folder that another process holds, and a build waiting for it
            try sandbox.writeCatalog(Array(Self.cards.prefix(1)))
            try #require(try sandbox.run(Self.build).status == 0)
            let before = sandbox.listing(".")
            let held = try DirectoryLock.acquire(sandbox.url("OUT"), mode: .exclusive, creating: false,
                                                 timeout: .zero, cancellation: Cancellation(), waiting: { _ in })
            let waiting = try sandbox.start(Self.build)
            let waited = waiting.waitForStderr(containing: "waiting for")

            // When
            waiting.send(SIGINT)
            let result = try waiting.wait()
            held?.release()

            // Then
            #expect(waited, result.comment)
            #expect(result.exited && result.status == 130, result.comment)
            #expect(result.stderr.contains("interrupted"), result.comment)
            #expect(sandbox.listing(".") == before, "the interrupted build changed files")
        }
    }

    @Test("Checks share the folders with other checks, and keep builds out")
    func checksShare() throws {
        try Sandbox.with { sandbox in
            // Given a build, and another process checking it
            try sandbox.writeCatalog(Array(Self.cards.prefix(1)))
            try #require(try sandbox.run(Self.build).status == 0)
            let checking = try WorkspaceLock(folders: [sandbox.url("OUT"), sandbox.url(".cardbake")], mode: .shared,
                                             creating: false, timeout: .zero, cancellation: Cancellation(),
                                             waiting: { _, _ in })

            // When
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT", "--lock-timeout", "0"])
            let build = try sandbox.run(Self.build + ["--lock-timeout", "0"])
            checking.release()

            // Then
            #expect(check.status == 0, check.comment)
            #expect(!check.stderr.contains("waiting"), check.comment)
            #expect(build.status == 3, build.comment)
        }
    }

    @Test("A reader never sees a half-written or missing manifest while builds replace it")
    func manifestReaders() throws {
        try Sandbox.with { sandbox in
            // Given two catalogs of different cards, each built once, so later builds copy and replace
            let catalogs = [Array(Self.cards.prefix(4)), Array(Self.cards.suffix(3))]
            for (index, cards) in catalogs.enumerated() {
                try sandbox.writeCatalog(cards, to: "catalog\(index).json")
                try #require(try sandbox.run(["build", "catalog\(index).json", "--output", "OUT"]).status == 0)
            }

            // When a reader reads the manifest over and over while the builds alternate
            let reader = ManifestReader(url: sandbox.url("OUT/manifest.json"))
            for round in 0..<10 {
                let result = try sandbox.run(["build", "catalog\(round % 2).json", "--output", "OUT"])
                #expect(result.status == 0, result.comment)
            }
            let seen = reader.stop()

            // Then every read was a whole manifest of one catalog or the other
            #expect(seen.failures == [])
            #expect(seen.reads > 0)
            #expect(seen.cardLists.isSubset(of: Set(catalogs.map { $0.map(\.id) })), "\(seen.cardLists)")
        }
    }
}

/// Reads a manifest over and over on a thread of its own until stopped.
private final class ManifestReader: Sendable {
    struct Seen {
        var reads = 0
        /// The card ids of each manifest read.
        var cardLists: Set<[String]> = []
        var failures: [String] = []
    }

    private let seen = Mutex(Seen())
    private let stopped = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    init(url: URL) {
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .relaxed) {
                let outcome = Result { try ManifestFile.read(from: url) }
                seen.withLock { seen in
                    seen.reads += 1
                    switch outcome {
                    case .success(let manifest): seen.cardLists.insert(manifest.cards.map(\.id))
                    case .failure(let error): seen.failures.append("\(error)")
                    }
                }
            }
            finished.signal()
        }
    }

    /// Stops reading and returns what was read.
    func stop() -> Seen {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
        return seen.withLock { $0 }
    }
}
