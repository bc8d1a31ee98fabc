import Dispatch
import Foundation
import Glibc
import Synchronization

/// Tells when any of a set of files changes: written, replaced (editors save by writing a new file
/// and renaming it over the old one), created or removed.
///
/// It watches the files' folders with inotify, so a file replaced by a rename is still seen, and
/// falls back to comparing the files' status every `pollInterval` when inotify is unavailable or out
/// of watches. No maintained Swift package wraps inotify; this is the few system calls it takes.
package final class FileWatcher: Sendable {
    private let files: Set<String>
    private let source: Mutex<Source>
    private let pollInterval: Duration

    private enum Source {
        case inotify(descriptor: Int32, folders: [Int32: String])
        case polling([String: FileStatus?])
    }

    /// How the watcher learns of changes, for `--verbose`.
    package var mechanism: String {
        source.withLock { if case .inotify = $0 { "inotify" } else { "polling every \(pollInterval)" } }
    }

    /// Watches `files`; `pollInterval` applies when inotify is unavailable or `useInotify` is false.
    package init(files: Set<URL>, pollInterval: Duration = .milliseconds(250), useInotify: Bool = true) {
        self.pollInterval = pollInterval
        self.files = Set(files.map { $0.standardizedFileURL.path })
        source = Mutex(Self.makeSource(watching: self.files, useInotify: useInotify))
    }

    deinit {
        source.withLock { source in
            if case .inotify(let descriptor, _) = source { close(descriptor) }
        }
    }

    /// Waits for a change to a watched file, then for `quietPeriod` without another (a burst of saves
    /// is one change), and returns the paths that changed. Returns nil when `cancellation` is
    /// cancelled first. Changes made since the last call, even before this call, count.
    ///
    /// With inotify, it wakes as soon as an event arrives and the moment the quiet period ends;
    /// cancellation is seen within ``cancellationCheckInterval``.
    package func nextChange(quietPeriod: Duration = .milliseconds(20),
                            cancellation: Cancellation) async -> Set<String>? {
        var changed = Set<String>()
        var lastChange: ContinuousClock.Instant?
        while !cancellation.isCancelled {
            let found = pendingChanges()
            if !found.isEmpty {
                changed.formUnion(found)
                lastChange = .now
            }
            let wait: Duration
            if let lastChange {
                let quietLeft = quietPeriod - (ContinuousClock.now - lastChange)
                if quietLeft <= .zero { return changed }
                wait = min(quietLeft, Self.cancellationCheckInterval)
            } else {
                wait = Self.cancellationCheckInterval
            }
            await waitForEvents(upTo: wait)
        }
        return nil
    }

    /// The longest the watcher waits without looking at its cancellation.
    static let cancellationCheckInterval = Duration.milliseconds(50)

    /// Waits until the inotify queue has an event or `timeout` has passed; when polling, waits
    /// ``pollInterval``, whatever `timeout` is. The blocking wait runs on a Dispatch thread, not on
    /// one of Swift concurrency's.
    private func waitForEvents(upTo timeout: Duration) async {
        let descriptor: Int32? = source.withLock { if case .inotify(let descriptor, _) = $0 { descriptor } else { nil } }
        guard let descriptor else {
            try? await Task.sleep(for: pollInterval)
            return
        }
        // Rounded up, so that a wake-up at the end of a quiet period finds it over.
        let milliseconds = Int32((timeout.seconds * 1000).rounded(.up))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // `self` is kept alive, so the descriptor stays open, until the wait ends.
            DispatchQueue.global().async { [self] in
                withExtendedLifetime(self) {
                    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&request, 1, milliseconds)
                }
                done.resume()
            }
        }
    }

    /// The watched paths that changed since the last call, without waiting.
    package func pendingChanges() -> Set<String> {
        source.withLock { source in
            switch source {
            case .inotify(let descriptor, let folders):
                let named = Self.readEvents(descriptor, folders: folders)
                return named.contains(Self.overflow) ? files : named.intersection(files)
            case .polling(let known):
                var changed = Set<String>(), now = known
                for (path, status) in known {
                    let current = try? FileStatus(path: path)
                    if current != status {
                        changed.insert(path)
                        now[path] = current
                    }
                }
                source = .polling(now)
                return changed
            }
        }
    }

    private static func makeSource(watching paths: Set<String>, useInotify: Bool) -> Source {
        let polling = Source.polling(Dictionary(uniqueKeysWithValues: paths.map { ($0, try? FileStatus(path: $0)) }))
        guard useInotify else { return polling }
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return polling }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        var folders: [Int32: String] = [:]
        for folder in Set(paths.map { ($0 as NSString).deletingLastPathComponent }) {
            let watch = inotify_add_watch(descriptor, folder, mask)
            guard watch >= 0 else {
                close(descriptor)
                return polling
            }
            folders[watch] = folder
        }
        return .inotify(descriptor: descriptor, folders: folders)
    }

    /// The paths named by the events waiting on the non-blocking `descriptor`; ``overflow`` when the
    /// kernel dropped events.
    private static func readEvents(_ descriptor: Int32, folders: [Int32: String]) -> Set<String> {
        var changed = Set<String>()
        let bufferSize = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, bufferSize)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed.insert(overflow)
                } else if let folder = folders[event.wd], event.len > 0 {
                    let name = String(cString: nameStart.assumingMemoryBound(to: CChar.self))
                    changed.insert(folder == "/" ? "/" + name : folder + "/" + name)
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
        return changed
    }

    /// Stands for "every file" after the kernel dropped events.
    private static let overflow = "\0overflow"
}
