import DequeModule
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Keeps the bulk files this process writes or reads, the bitmaps, from crowding the page cache.
///
/// Once the files noted with ``cached(_:bytes:)`` add up to more than the limit, or number more
/// than ``maxFiles``, the oldest are handed to the release, which by default flushes each to disk
/// and drops its pages from the cache on a background queue. Without this, a large build's
/// bitmaps (write-once bytes, read back at most once) push every other file out of memory,
/// including the shared libraries the next `cardbake check` must then load from disk.
package final class PageCacheBudget: Sendable {
    /// The budget for bitmaps: an eighth of the machine's memory.
    package static let bitmaps = PageCacheBudget(limit: Int(clamping: ProcessInfo.processInfo.physicalMemory / 8))

    /// The most files noted at once, so that the budget's own table stays small (some 170 bytes a
    /// file) however many files a build writes: a cold build's last 110 cards or so, which note
    /// each bitmap as stored, read back and written out.
    package static let maxFiles = 1024

    private struct Noted {
        var files: Deque<(path: String, bytes: Int)> = []
        var bytes = 0
    }

    private let limit: Int
    private let maxFiles: Int
    private let noted = Mutex(Noted())
    private let release: @Sendable ([String]) -> Void

    /// A budget of `limit` bytes in at most `maxFiles` files; `release` gets the files that go over
    /// it, oldest first.
    package init(limit: Int, maxFiles: Int = PageCacheBudget.maxFiles,
                 release: @escaping @Sendable ([String]) -> Void = PageCacheBudget.dropInBackground) {
        self.limit = limit
        self.maxFiles = maxFiles
        self.release = release
    }

    /// Notes that the `bytes` of the file at `path` are now in the page cache, just written or read.
    package func cached(_ path: String, bytes: Int) {
        let over = noted.withLock { noted -> [String] in
            noted.files.append((path, bytes))
            noted.bytes += bytes
            var over: [String] = []
            while noted.bytes > limit || noted.files.count > maxFiles, let oldest = noted.files.popFirst() {
                over.append(oldest.path)
                noted.bytes -= oldest.bytes
            }
            return over
        }
        if !over.isEmpty {
            release(over)
        }
    }

    private static let dropping = DispatchQueue(label: "cardbake.page-cache-budget", qos: .utility)

    /// Drops the files from the page cache (``dropFromPageCache(_:)``) on a background queue.
    @Sendable package static func dropInBackground(_ paths: [String]) {
        dropping.async { paths.forEach(dropFromPageCache) }
    }

    /// Writes the file's changed pages to disk and drops all its pages from the page cache, so that
    /// it costs no memory until read again. Does nothing to a file that is gone or cannot be opened.
    package static func dropFromPageCache(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Dirty pages cannot be dropped: write them first.
        _ = fdatasync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        close(descriptor)
    }
}
