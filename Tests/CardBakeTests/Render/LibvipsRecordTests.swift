import CardBakeRender
import Foundation
import Glibc
import Testing

/// ``LibvipsRecord``: holds exactly while the library, the loader's cache and its search path are as recorded.
@Suite("libvips record")
struct LibvipsRecordTests {
    /// A stand-in library and loader cache in `folder`, and the record of them.
    private func recorded(in folder: URL, searchPath: String? = nil) throws -> LibvipsRecord {
        try Data("library".utf8).write(to: folder.appendingPathComponent("libvips.so.42"))
        try Data("cache".utf8).write(to: folder.appendingPathComponent("ld.so.cache"))
        return try #require(LibvipsRecord(version: "8.14.1", libraryPath: folder.appendingPathComponent("libvips.so.42").path,
                                          loaderCachePath: folder.appendingPathComponent("ld.so.cache").path,
                                          environment: searchPath.map { ["LD_LIBRARY_PATH": $0] } ?? [:]))
    }

    /// A change after the record was made, and whether the record still holds after it.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case none, libraryReplaced, libraryRewrittenInPlace, libraryRemoved, loaderCacheRebuilt, searchPathSet

        var testDescription: String { rawValue }
        var keepsRecord: Bool { self == .none }
    }

    @Test("the record holds only while nothing the loader chooses by has changed", arguments: Change.allCases)
    func holds(after change: Change) throws {
        try withTemporaryDirectory { folder in
            // Given
            let record = try recorded(in: folder)
            let library = folder.appendingPathComponent("libvips.so.42")
            let loaderCache = folder.appendingPathComponent("ld.so.cache")
            var environment: [String: String] = [:]

            // When
            switch change {
            case .none: break
            case .libraryReplaced:
                // What a package upgrade does: a new file renamed over the old one.
                let replacement = folder.appendingPathComponent("new")
                try Data("library".utf8).write(to: replacement)
                try #require(rename(replacement.path, library.path) == 0)
            case .libraryRewrittenInPlace:
                let handle = try FileHandle(forWritingTo: library)
                try handle.write(contentsOf: Data("LIBRARY, longer".utf8))
                try handle.close()
            case .libraryRemoved:
                try FileManager.default.removeItem(at: library)
            case .loaderCacheRebuilt:
                let rebuilt = folder.appendingPathComponent("ld.so.cache~")
                try Data("cache".utf8).write(to: rebuilt)
                try #require(rename(rebuilt.path, loaderCache.path) == 0)
            case .searchPathSet:
                environment["LD_LIBRARY_PATH"] = "/opt/other-libvips/lib"
            }

            // Then
            #expect(record.holds(loaderCachePath: loaderCache.path, environment: environment) == change.keepsRecord)
        }
    }

    @Test("a search path recorded must be the one set now")
    func searchPath() throws {
        try withTemporaryDirectory { folder in
            let record = try recorded(in: folder, searchPath: "/opt/libvips/lib")
            let loaderCache = folder.appendingPathComponent("ld.so.cache").path

            #expect(record.holds(loaderCachePath: loaderCache, environment: ["LD_LIBRARY_PATH": "/opt/libvips/lib"]))
            #expect(!record.holds(loaderCachePath: loaderCache, environment: [:]))
        }
    }

    @Test("saved into a cache folder, the record reads back the same, and saving it again leaves the file alone")
    func saveAndRead() throws {
        try withTemporaryDirectory { folder in
            // Given
            let record = try recorded(in: folder)
            let file = folder.appendingPathComponent(LibvipsRecord.fileName)

            // When
            try record.save(in: folder)
            let first = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
            try record.save(in: folder)
            let second = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int

            // Then
            #expect(LibvipsRecord.read(in: folder) == record)
            #expect(first != nil && first == second, "saved again: inode \(String(describing: first)) → \(String(describing: second))")
        }
    }

    @Test("no record, or a damaged one, reads as none")
    func missingOrDamaged() throws {
        try withTemporaryDirectory { folder in
            #expect(LibvipsRecord.read(in: folder) == nil)
            try Data("{\"version\": 8".utf8).write(to: folder.appendingPathComponent(LibvipsRecord.fileName))
            #expect(LibvipsRecord.read(in: folder) == nil)
        }
    }
}
