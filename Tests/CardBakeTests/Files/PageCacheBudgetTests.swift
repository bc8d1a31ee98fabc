import Foundation
import Glibc
import Synchronization
import Testing
@testable import CardBakeFiles

@Suite("Page cache budget for bitmaps")
struct PageCacheBudgetTests {
    /// A budget whose releases are recorded instead of done.
    private final class Recorder: Sendable {
        let released = Mutex<[[String]]>([])
        func budget(limit: Int, maxFiles: Int = PageCacheBudget.maxFiles) -> PageCacheBudget {
            PageCacheBudget(limit: limit, maxFiles: maxFiles) { paths in self.released.withLock { $0.append(paths) } }
        }
    }

    @Test("Files stay until the noted bytes exceed the limit, then the oldest go first")
    func releasesOldestOverLimit() {
        let recorder = Recorder()
        let budget = recorder.budget(limit: 100)
        budget.cached("a", bytes: 40)
        budget.cached("b", bytes: 40)
        budget.cached("c", bytes: 20)
        #expect(recorder.released.withLock { $0 }.isEmpty, "100 bytes is within the limit")
        budget.cached("d", bytes: 50)
        // 150 bytes: a goes (110 left, still over), then b (70 left).
        #expect(recorder.released.withLock { $0 } == [["a", "b"]])
        budget.cached("e", bytes: 10)
        #expect(recorder.released.withLock { $0 } == [["a", "b"]], "c, d and e make 80 bytes")
        budget.cached("f", bytes: 300)
        // A file bigger than the whole budget goes at once, after everything older.
        #expect(recorder.released.withLock { $0 } == [["a", "b"], ["c", "d", "e", "f"]])
        budget.cached("g", bytes: 100)
        #expect(recorder.released.withLock { $0 }.count == 2, "after the big file, the budget is empty again")
    }

    @Test("Many files over time: each is released once, in the order noted")
    func releasesEachOnceInOrder() {
        let recorder = Recorder()
        let budget = recorder.budget(limit: 10)
        for index in 0..<5000 {
            budget.cached("file-\(index)", bytes: 3)
        }
        let released = recorder.released.withLock { $0 }.flatMap { $0 }
        // 10 bytes hold the last three files.
        #expect(released == (0..<4997).map { "file-\($0)" })
    }

    @Test("Past the most files it notes, the oldest go however few bytes they hold")
    func releasesOldestOverFileCount() {
        let recorder = Recorder()
        let budget = recorder.budget(limit: 1 << 30, maxFiles: 3)
        for name in ["a", "b", "c"] {
            budget.cached(name, bytes: 1)
        }
        #expect(recorder.released.withLock { $0 }.isEmpty, "three files is the most, not over it")
        budget.cached("d", bytes: 1)
        #expect(recorder.released.withLock { $0 } == [["a"]])
        for index in 0..<1000 {
            budget.cached("file-\(index)", bytes: 1)
        }
        let released = recorder.released.withLock { $0 }.flatMap { $0 }
        #expect(released == ["a", "b", "c", "d"] + (0..<997).map { "file-\($0)" })
    }

    @Test("Dropping a file written a moment ago takes its pages out of the page cache")
    func dropsPages() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("bitmap").path
            try Data(repeating: 7, count: 4 << 20).write(to: URL(fileURLWithPath: path))
            let before = try residentPages(of: path)
            try #require(before.resident == before.total, "a file just written is in the page cache")
            PageCacheBudget.dropFromPageCache(path)
            let after = try residentPages(of: path)
            #expect(after.resident == 0, "\(after.resident) of \(after.total) pages still cached")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 7, count: 4 << 20))
        }
    }

    /// How many of the file's pages are in the page cache (`mincore(2)`), and how many it has.
    private func residentPages(of path: String) throws -> (resident: Int, total: Int) {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        try #require(fstat(descriptor, &info) == 0)
        let size = Int(info.st_size)
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        var pages = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
        try #require(mincore(mapping, size, &pages) == 0)
        return (pages.filter { $0 & 1 != 0 }.count, pages.count)
    }
}
