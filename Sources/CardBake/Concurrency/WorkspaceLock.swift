import CardBakeFiles
import Foundation
import Glibc

/// The locks a command holds on the folders it uses (its cache and its output folder) from before
/// it reads them until it is done, so that two cardbake processes never interleave their work on
/// one folder: a build or a clean holds them exclusively, a check shared with other checks.
///
/// Folders are locked in the order of their real paths, whatever their roles, so two commands never
/// each hold a folder the other is waiting for; a folder named twice is locked once.
package final class WorkspaceLock {
    private var locks: [DirectoryLock]
    /// Journals of folders written while locked, finished on release.
    private var journals: [WriteJournal] = []
    /// The folders this lock made (parents too), deepest first: those still empty on release are
    /// removed, so a command that stopped before writing anything leaves nothing behind.
    private var made: [URL] = []

    /// Locks every folder of `folders`, see ``DirectoryLock/acquire(_:mode:creating:timeout:cancellation:waiting:)``;
    /// `waiting` is called once for each folder found locked, with the folder and its holder.
    package init(folders: [URL], mode: DirectoryLock.Mode, creating: Bool, timeout: Duration?,
                cancellation: Cancellation, waiting: (URL, LockHolder) -> Void) throws {
        if creating {
            for folder in folders {
                made = Self.missingFolders(upTo: folder) + made
                try AtomicFileWriter.createDirectory(at: folder)
            }
        }
        var locks: [DirectoryLock] = []
        for path in Set(folders.map(Self.realPath)).sorted() {
            let folder = URL(fileURLWithPath: path)
            if let lock = try DirectoryLock.acquire(folder, mode: mode, creating: creating, timeout: timeout,
                                                    cancellation: cancellation, waiting: { waiting(folder, $0) }) {
                locks.append(lock)
            }
        }
        self.locks = locks
    }

    /// Finishes the journals, then releases every lock; releasing again does nothing. Also done
    /// when the object goes away.
    package func release() {
        journals.forEach { $0.finish() }
        journals = []
        for folder in made {
            rmdir(folder.fileSystemPath)
        }
        made = []
        locks.reversed().forEach { $0.release() }
        locks = []
    }

    deinit {
        release()
    }

    /// `folder` and its parents that do not exist, deepest first.
    private static func missingFolders(upTo folder: URL) -> [URL] {
        var missing: [URL] = []
        var current = URL(fileURLWithPath: folder.fileSystemPath)
        while current.path != "/", access(current.fileSystemPath, F_OK) != 0 {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        return missing
    }

    /// The folder's absolute path with symbolic links resolved, or its normalised path when it does not exist.
    private static func realPath(of folder: URL) -> String {
        guard let resolved = realpath(folder.fileSystemPath, nil) else { return folder.fileSystemPath }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension WorkspaceLock {
    /// The locks of a build: its output folder, its cache folder (none with `--no-cache`) and its asset catalog,
    /// exclusive, made when missing; waiting is reported as a ``BuildEvent/waiting(for:holder:)``.
    /// The cache folder is journalled for as long as it is held: temporary files a killed build
    /// left there are removed first.
    convenience init(building request: BuildRequest, cancellation: Cancellation,
                     events: (BuildEvent) -> Void) throws {
        try self.init(folders: [request.cache, request.output, request.xcassets].compactMap { $0 }, mode: .exclusive, creating: true,
                      timeout: request.lockTimeout, cancellation: cancellation) { events(.waiting(for: $0, holder: $1)) }
        if let cache = request.cache {
            try journal(cache: cache)
        }
    }

    /// The lock of a garbage collection of the cache folder `cache`: exclusive, as a build's, and
    /// journalled for as long as it is held; a folder that does not exist is neither made nor locked.
    convenience init(collecting cache: URL, timeout: Duration?, waiting: (URL, LockHolder) -> Void) throws {
        try self.init(folders: [cache], mode: .exclusive, creating: false, timeout: timeout,
                      cancellation: Cancellation(), waiting: waiting)
        if FileManager.default.fileExists(atPath: cache.path) {
            try journal(cache: cache)
        }
    }

    /// Journals the cache folder for as long as it is held, first removing the temporary files a
    /// killed command left there.
    private func journal(cache: URL) throws {
        let journal = WriteJournal.cache(cache)
        try journal.begin()
        journals.append(journal)
    }

    /// The locks of a check: the output, cache and asset catalog folders the build would use, shared with other
    /// checks; a folder that does not exist is neither made nor locked.
    convenience init(checking request: BuildRequest, waiting: (URL, LockHolder) -> Void) throws {
        try self.init(folders: [request.cache, request.output, request.xcassets].compactMap { $0 }, mode: .shared, creating: false,
                      timeout: request.lockTimeout, cancellation: Cancellation(), waiting: waiting)
    }
}
