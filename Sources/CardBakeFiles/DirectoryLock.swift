import Foundation
import Glibc

/// An advisory lock on a directory: `flock(2)` on the directory itself.
///
/// There is no lock file to leave behind, to prune or to clean up, and the kernel releases the lock
/// when the process ends, however it ends (`kill -9` included), so a lock is never stale.
/// Exclusive locks are for commands that write (build, clean), shared ones for commands that only
/// read (check): any number of readers, or one writer.
///
/// Waiting polls rather than blocks, so that a cancelled command stops waiting and a timeout can
/// end the wait. A directory removed (and perhaps made again) while a command waits for it, as
/// `clean --cache` does, is noticed: the lock is always on the directory the path names once the
/// lock is held, never on a removed one.
///
/// The lock belongs to this object's open file description: another lock on the same directory,
/// even from this process, waits for it to be released.
package final class DirectoryLock {
    package enum Mode: Sendable {
        case exclusive, shared
    }

    /// The directory locked.
    package let directory: URL
    private var descriptor: Int32

    private init(directory: URL, descriptor: Int32) {
        self.directory = directory
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// Locks `directory`, waiting as long as `timeout` allows (nil: as long as it takes).
    ///
    /// - Parameters:
    ///   - creating: make the directory and its parents when missing. Without it, a missing
    ///     directory is not locked and nil is returned.
    ///   - waiting: called once, with whoever holds the lock, if the lock is not free at once.
    /// - Throws: ``LockTimeout`` when `timeout` passes first; ``BuildCancelled`` when `cancellation`
    ///   is set while waiting; ``FileSystemError`` when the directory cannot be made, opened or locked.
    package static func acquire(_ directory: URL, mode: Mode, creating: Bool, timeout: Duration?,
                               cancellation: Cancellation,
                               waiting: (LockHolder) -> Void) throws -> DirectoryLock? {
        let path = directory.fileSystemPath
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pause = Duration.milliseconds(5)
        var announced = false
        while true {
            switch try attempt(path, mode: mode, creating: creating) {
            case .locked(let descriptor):
                return DirectoryLock(directory: directory, descriptor: descriptor)
            case .missing:
                return nil
            case .busy(let identity):
                let holder = LockHolder.holding(identity)
                if let deadline, ContinuousClock.now >= deadline {
                    throw LockTimeout(directory: directory, holder: holder, timeout: timeout ?? .zero)
                }
                if !announced {
                    waiting(holder)
                    announced = true
                }
                try cancellation.check()
                let remaining = deadline.map { $0 - ContinuousClock.now } ?? pause
                Thread.sleep(forTimeInterval: max(min(pause, remaining), .milliseconds(1)).seconds)
                pause = min(pause * 2, .milliseconds(100))
            }
        }
    }

    /// Releases the lock; releasing again does nothing. Also done when the object goes away.
    package func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// The device and inode numbers that identify a directory, whatever path reaches it.
    package struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64

        init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        init?(descriptor: Int32) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            self.init(info)
        }

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        private init(_ info: stat) {
            self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    private enum Attempt {
        case locked(Int32)
        case busy(Identity?)
        case missing
    }

    /// One try at the lock without waiting. A directory replaced while it was being locked is
    /// tried again at once.
    private static func attempt(_ path: String, mode: Mode, creating: Bool) throws -> Attempt {
        let operation = (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        while true {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor < 0 {
                switch errno {
                case EINTR: continue
                case ENOENT where creating: try AtomicFileWriter.createDirectory(at: URL(fileURLWithPath: path))
                case ENOENT: return .missing
                case let code: throw FileSystemError.cannotLock(path: path, errno: code)
                }
                continue
            }
            guard flock(descriptor, operation) == 0 else {
                let code = errno
                let identity = Identity(descriptor: descriptor)
                close(descriptor)
                switch code {
                case EWOULDBLOCK: return .busy(identity)
                case EINTR: continue
                default: throw FileSystemError.cannotLock(path: path, errno: code)
                }
            }
            if let held = Identity(descriptor: descriptor), held == Identity(path: path) {
                return .locked(descriptor)
            }
            close(descriptor)
        }
    }
}
