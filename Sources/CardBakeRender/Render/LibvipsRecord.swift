import CardBakeFiles
import Foundation
import Vips

/// The libvips a process loaded, recorded in the cache folder so that a later process can name its
/// version without loading libvips: libvips and Pango are loaded at their first use
/// (`Sources/CRenderStack`), and a command that renders nothing should not pay for them.
///
/// The record holds the library's path and ``FileStatus``, and what the dynamic loader chose that
/// file by: `LD_LIBRARY_PATH` and the ``FileStatus`` of its cache, `/etc/ld.so.cache`. It holds
/// while all three are as recorded; a replaced library (a package upgrade writes a new file), a
/// rebuilt loader cache (`ldconfig`) or another search path each mean asking libvips again.
package struct LibvipsRecord: Codable, Equatable, Sendable {
    package var version: String
    package var libraryPath: String
    package var library: FileStatus
    package var loaderCache: FileStatus?
    package var searchPath: String?

    /// The record's file name in the cache folder.
    package static let fileName = "libvips"
    /// The dynamic loader's cache of libraries by name.
    package static let loaderCachePath = "/etc/ld.so.cache"

    package init(version: String, libraryPath: String, library: FileStatus, loaderCache: FileStatus?, searchPath: String?) {
        self.version = version
        self.libraryPath = libraryPath
        self.library = library
        self.loaderCache = loaderCache
        self.searchPath = searchPath
    }

    /// The record of the libvips file at `libraryPath` reporting `version`, as the loader finds it
    /// now; nil when that file cannot be examined.
    package init?(version: String, libraryPath: String, loaderCachePath: String = loaderCachePath,
                  environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let library = try? FileStatus(path: libraryPath) else { return nil }
        self.init(version: version, libraryPath: libraryPath, library: library,
                  loaderCache: try? FileStatus(path: loaderCachePath), searchPath: environment["LD_LIBRARY_PATH"])
    }

    /// The record of the libvips this process loaded; nil before ``Vips/start()``.
    package static func ofLoadedLibrary() -> LibvipsRecord? {
        Vips.libraryPath.flatMap { LibvipsRecord(version: Vips.version, libraryPath: $0) }
    }

    /// Whether a process started now would load the recorded file.
    package func holds(loaderCachePath: String = loaderCachePath,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["LD_LIBRARY_PATH"] == searchPath
            && (try? FileStatus(path: loaderCachePath)) == loaderCache
            && (try? FileStatus(path: libraryPath)) == library
    }

    /// The record in the cache folder `folder`; nil when there is none or it cannot be read.
    package static func read(in folder: URL) -> LibvipsRecord? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(LibvipsRecord.self, from: data)
    }

    /// Writes this record into the cache folder `folder` (atomically) unless it is there already.
    package func save(in folder: URL) throws {
        guard Self.read(in: folder) != self else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFileWriter.write(encoder.encode(self), to: folder.appendingPathComponent(Self.fileName))
    }

    /// The libvips version a command with the cache folder `cache` uses: libvips' own once it is
    /// loaded; before that, the version recorded in `cache` while the record holds, so that nothing
    /// loads libvips; otherwise libvips' own, loading it.
    package static func version(cache: URL?) -> String {
        if !Vips.isStarted, let cache, let record = read(in: cache), record.holds() {
            return record.version
        }
        return Vips.version
    }
}
