import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc
import Synchronization

/// Remembers files' SHA-256 digests by path and `stat`, so that unchanged files are not read again.
///
/// An entry holds the file's size, modification time, inode and change time (all to the
/// nanosecond) and its digest. It is used only when the file's current `stat` still matches *and*
/// the entry is not "racy", git's rule: both times must be older, by more than the file system's
/// timestamp granularity, than the moment the entry was recorded. Otherwise a write landing in the
/// same timestamp tick as the one hashed, with the same size, could go unnoticed. Within the
/// process, the moment of recording is the clock just before the file was examined; for an entry
/// loaded from a file, it is the moment that file was saved (``save(to:)``), after every entry in
/// it was examined. A racy entry is re-hashed, and the new entry, recorded later, is trusted from
/// then on.
///
/// The granularity is not asked of the file system but read from the times themselves: a file
/// whose times both have a sub-second part lives on a file system with sub-second timestamps
/// (ext4, XFS, Btrfs, tmpfs: one kernel clock tick, at most 10 ms; exFAT: 10 ms), and gets a
/// margin of 20 ms, two of the coarsest ticks. Whole-second times (ext3, FAT's 2 s, or a rare exact
/// second) get 2 s.
///
/// Saving settles the entries still inside the margin, such as the outputs a build has just
/// written: it waits out the fine margin (at most 20 ms) and hashes those few files again, keeping
/// an entry only if the file still has its `stat` and digest. Any later write then gets a newer
/// time, so the saved entries are trusted by the next build without reading the files.
///
/// Safe to use from many threads. Paths are made absolute and lexically normalised; symbolic
/// links are followed but not resolved, so two paths to one file have two entries.
package final class StatCache: Sendable {
    /// How much older than the moment of recording a file's times must be for its entry to be
    /// trusted when both times have a sub-second part: 20 ms, in nanoseconds.
    package static let fineRacyMargin: Int64 = 20_000_000
    /// The same when either time is a whole second: 2 s (FAT's granularity), in nanoseconds.
    package static let coarseRacyMargin: Int64 = 2_000_000_000

    /// What is known about one file.
    package struct Entry: Equatable, Sendable {
        var status: FileStatus
        var digest: ContentDigest
        /// When the entry was made, in nanoseconds since 1970: taken before the file was examined,
        /// or, for an entry loaded from a file, when that file was saved.
        var recordedAt: Int64

        /// Whether any later write to the file must have changed its status.
        var isTrusted: Bool { isTrusted(at: recordedAt) }

        /// Whether the entry would be trusted if recorded at `moment`: both times strictly older
        /// than `moment` minus the margin.
        func isTrusted(at moment: Int64) -> Bool {
            let threshold = moment - racyMargin
            return status.modificationTime < threshold && status.changeTime < threshold
        }

        /// The first moment at which the entry would be trusted.
        var trustedFrom: Int64 { max(status.modificationTime, status.changeTime) + racyMargin + 1 }

        /// The margin for this file's times: see ``StatCache``.
        var racyMargin: Int64 {
            let second: Int64 = 1_000_000_000
            let bothFine = status.modificationTime % second != 0 && status.changeTime % second != 0
            return bothFine ? StatCache.fineRacyMargin : StatCache.coarseRacyMargin
        }
    }

    private struct State {
        var entries: UsedEntries<String, Entry>
        /// The file the entries were loaded from and where its intact part ended: a save to it appends.
        var loaded: (file: URL, end: RecordLog.End)?
        var hits = 0
        var misses = 0

        /// The digest of the trusted entry for `path` made when the file had `status`, counted as a
        /// hit; nil, not yet counted, when there is none.
        mutating func hit(_ path: String, status: FileStatus) -> ContentDigest? {
            guard let entry = entries.value(for: path, if: { $0.status == status && $0.isTrusted }) else { return nil }
            hits += 1
            return entry.digest
        }
    }

    private let state: Mutex<State>
    private let clock: @Sendable () -> Int64
    private let sleep: @Sendable (_ nanoseconds: Int64) -> Void

    /// A cache holding the entries saved in `file`; empty if `file` is nil, missing, unreadable,
    /// damaged or of another format version.
    package convenience init(loadingFrom file: URL?) {
        self.init(loadingFrom: file, clock: StatCache.currentTime, sleep: StatCache.sleep(nanoseconds:))
    }

    /// As the package initialiser, with `clock` (nanoseconds since 1970) standing in for the
    /// system's, and `sleep` for waiting that many nanoseconds on it.
    package convenience init(loadingFrom file: URL?, clock: @escaping @Sendable () -> Int64,
                             sleep: @escaping @Sendable (_ nanoseconds: Int64) -> Void) {
        self.init(SavedFile(reading: file), clock: clock, sleep: sleep)
    }

    /// A stat cache made from `saved`, read earlier, if its file is still the one read; else from the file as it is now.
    package convenience init(loading saved: SavedFile) {
        self.init(saved.isCurrent ? saved : SavedFile(reading: saved.file),
                  clock: StatCache.currentTime, sleep: StatCache.sleep(nanoseconds:))
    }

    private init(_ saved: SavedFile, clock: @escaping @Sendable () -> Int64,
                 sleep: @escaping @Sendable (_ nanoseconds: Int64) -> Void) {
        let contents = saved.takeContents()
        let loaded = saved.file.flatMap { file in contents.end.map { (file: file, end: $0) } }
        state = Mutex(State(entries: UsedEntries(loaded: contents.entries), loaded: loaded))
        self.clock = clock
        self.sleep = sleep
    }

    /// A stat cache's file as read at one moment, with the status it had then: a build reads it while
    /// it parses the catalog, before it holds the cache locked, and uses it if the file has not been
    /// replaced since (a save writes a new file: a new inode).
    ///
    /// Its entries go to the first stat cache made from it, which then holds the only copy for the
    /// whole build; a later one reads the file again.
    package struct SavedFile: Sendable {
        package let file: URL?
        private let contents: Handover
        private let status: FileStatus?

        /// The entries of `file`; none if it is nil, missing, damaged or of another format version.
        package init(reading file: URL?) {
            self.file = file
            let opened = file.flatMap { try? ReadableFile(path: $0.fileSystemPath) }
            status = try? opened?.status()
            let bytes = try? opened?.readToEnd()
            contents = Handover(file.flatMap { file in bytes.map { StatCache.decode($0, of: file) } } ?? .empty)
        }

        /// The entries read, given up by this value; read again if they were given up before.
        fileprivate func takeContents() -> Contents {
            contents.take() ?? SavedFile(reading: file).takeContents()
        }

        /// What copies of a ``SavedFile`` share, until one takes it.
        private final class Handover: Sendable {
            private let contents: Mutex<Contents?>

            init(_ contents: Contents) {
                self.contents = Mutex(contents)
            }

            func take() -> Contents? {
                contents.withLock { $0.take() }
            }
        }

        /// Whether the file has the status it had when read.
        var isCurrent: Bool {
            guard let file, let status else { return false }
            return (try? FileStatus(path: file.fileSystemPath)) == status
        }
    }

    /// The SHA-256 of the file's bytes: the recorded digest when the file's `stat` matches a trusted
    /// entry (a hit), otherwise read and hashed now and recorded (a miss).
    ///
    /// - Throws: ``FileSystemError/cannotRead(path:errno:)`` naming the file, e.g. when it does not exist.
    package func digest(ofFileAt url: URL) throws -> ContentDigest {
        try digest(ofFileAtPath: url.fileSystemPath)
    }

    /// ``digest(ofFileAt:)`` for an absolute, normalised `path`.
    package func digest(ofFileAtPath path: String) throws -> ContentDigest {
        let status = try FileStatus(path: path)
        let recorded: ContentDigest? = state.withLock { state in
            let recorded = state.hit(path, status: status)
            if recorded == nil { state.misses += 1 }
            return recorded
        }
        if let recorded { return recorded }

        let recordedAt = clock()
        let file = try ReadableFile(path: path)
        let entry = Entry(status: try file.status(), digest: try ContentDigest.sha256(of: file), recordedAt: recordedAt)
        remember(entry, forPath: path)
        return entry.digest
    }

    /// ``digest(ofFileAt:)`` of many files, nil for each that cannot be read: the files are
    /// examined first and their entries looked up together, which costs one lock instead of one per
    /// file when many threads check many files (a no-op build's outputs).
    package func digests(ofFilesAtPaths paths: [String]) -> [ContentDigest?] {
        let statuses = paths.map { try? FileStatus(path: $0) }
        let recorded: [ContentDigest?] = state.withLock { state in
            zip(paths, statuses).map { path, status in status.flatMap { state.hit(path, status: $0) } }
        }
        return zip(paths, recorded).map { path, recorded in
            recorded ?? (try? digest(ofFileAtPath: path))
        }
    }

    /// Records the digest of bytes the caller wrote to `url` (an output file, say), so that they
    /// need not be read back.
    ///
    /// The racy rule applies as to any entry: within this process, an entry recorded within the
    /// margin of the file's last change is not trusted; ``save(to:)`` settles it.
    ///
    /// - Throws: ``FileSystemError/cannotRead(path:errno:)`` if the file cannot be examined.
    package func record(_ digest: ContentDigest, forFileAt url: URL) throws {
        try record(digest, forFileAtPath: url.fileSystemPath)
    }

    /// ``record(_:forFileAt:)`` for an absolute, normalised `path`.
    package func record(_ digest: ContentDigest, forFileAtPath path: String) throws {
        let recordedAt = clock()
        remember(Entry(status: try FileStatus(path: path), digest: digest, recordedAt: recordedAt), forPath: path)
    }

    /// Saves to `file` the entries of the files looked up or recorded since loading, so files that
    /// left the build (deleted images, removed cards' outputs) do not accumulate: what changed since
    /// loading is appended to the file loaded (``RecordLog``), or the whole table written; writes
    /// nothing if that would not change the file.
    ///
    /// The entries set since loading and still inside the fine margin are settled first (see
    /// ``StatCache``): one wait until the newest of their times is past the margin, then each file is
    /// examined and hashed again, and its entry kept only when both still match. The file records the
    /// moment after that as the moment of recording of every entry it gains.
    ///
    /// - Throws: ``FileSystemError/cannotWrite(path:errno:)`` naming the file.
    package func save(to file: URL) throws {
        guard let (pending, loaded) = state.withLock({ state in state.entries.pendingSave().map { ($0, state.loaded) } })
        else { return }
        let changedWhileRacy = changedWhileRacy(pending.changed)
        let savedAt = clock()
        let changes = pending.changed.map { Self.change($0.key, changedWhileRacy.contains($0.key) ? nil : $0.value) }
            + pending.removed.map { Self.change($0, nil) }
        let end = try Self.log(at: file).save(changes.count, changes: { try changes.forEach($0) },
                                              entries: pending.kept - changedWhileRacy.count, note: savedAt,
                                              after: loaded?.file == file ? loaded?.end : nil) { emit in
            for (path, entry) in state.withLock({ $0.entries.usedEntries }) where !changedWhileRacy.contains(path) {
                try emit(Self.change(path, entry))
            }
        }
        state.withLock { state in
            state.entries.saved(pending)
            state.loaded = (file, end)
        }
    }

    /// The paths of `entries` whose files changed: those racy now and on a file system with
    /// sub-second times are waited out and checked against their files. Entries with the coarse
    /// margin are left as they are (waiting up to 2 s would cost more than reading them again in the
    /// next build), and so are those with times after now (a clock set back, a file dated in the future).
    private func changedWhileRacy(_ entries: [(key: String, value: Entry)]) -> Set<String> {
        let now = clock()
        let racy = entries.filter { _, entry in
            !entry.isTrusted(at: now) && entry.racyMargin == Self.fineRacyMargin
                && entry.trustedFrom <= now + Self.fineRacyMargin + 1
        }
        guard let trustedFrom = racy.map(\.value.trustedFrom).max() else { return [] }
        if trustedFrom > now {
            sleep(trustedFrom - now)
        }
        return Set(racy.lazy.filter { !Self.unchanged($0.value, at: $0.key) }.map(\.key))
    }

    /// Whether the file at `path` still has the entry's status and digest.
    private static func unchanged(_ entry: Entry, at path: String) -> Bool {
        guard let file = try? ReadableFile(path: path), (try? file.status()) == entry.status else { return false }
        return (try? ContentDigest.sha256(of: file)) == entry.digest
    }

    /// Lookups answered from an entry without reading the file.
    package var hits: Int {
        state.withLock { $0.hits }
    }

    /// Lookups that had to read the file: no entry, a changed `stat`, or a racy entry.
    package var misses: Int {
        state.withLock { $0.misses }
    }

    /// The number of files with an entry.
    package var count: Int {
        state.withLock { $0.entries.count }
    }

    private func remember(_ entry: Entry, forPath path: String) {
        state.withLock { $0.entries.set(entry, for: path) }
    }

    /// Waits `nanoseconds` on the system's clock.
    package static func sleep(nanoseconds: Int64) {
        var remaining = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var requested = remaining
        while nanosleep(&requested, &remaining) != 0 && errno == EINTR {
            requested = remaining
        }
    }

    /// The system's wall-clock time in nanoseconds since 1970, the clock file times are set from.
    package static func currentTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.nanoseconds
    }
}
