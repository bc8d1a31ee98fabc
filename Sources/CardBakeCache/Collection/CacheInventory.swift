import CardBakeFiles
import CardBakeManifest
import Foundation
import Glibc

/// What a ``DiskArtifactStore`` holds: every entry with its size and its last use, read by walking
/// `ac/` and `cas/` (temporary files and foreign names are not entries).
package struct CacheInventory: Sendable {
    package struct Item: Sendable, Equatable {
        package var id: CacheEntryID
        /// The file's size.
        package var bytes: Int64
        /// Seconds since 1970: the time in ``CacheEntryUses``, else the file's modification time.
        package var lastUse: Int64
    }

    package private(set) var items: [CacheEntryID: Item] = [:]

    /// Walks the store's folders; `uses` gives the last use of the entries it knows.
    package init(store: DiskArtifactStore, uses: CacheEntryUses) {
        for area in CacheEntryID.Area.allCases {
            let folder = store.root.appendingPathComponent(area.folder)
            for prefix in Self.names(in: folder) where prefix.utf8.count == 2 {
                let subfolder = folder.appendingPathComponent(prefix)
                for name in Self.names(in: subfolder) {
                    guard name.hasPrefix(prefix), let digest = ContentDigest(hex: name) else { continue }
                    var info = stat()
                    guard stat(subfolder.appendingPathComponent(name).fileSystemPath, &info) == 0,
                          info.st_mode & S_IFMT == S_IFREG else { continue }
                    let id = CacheEntryID(area, digest)
                    items[id] = Item(id: id, bytes: Int64(info.st_size),
                                     lastUse: uses.times[id] ?? Int64(info.st_mtim.tv_sec))
                }
            }
        }
    }

    /// The bytes of every entry.
    package var totalBytes: Int64 { items.values.reduce(0) { $0 + $1.bytes } }

    /// Items of one area.
    package func count(_ area: CacheEntryID.Area) -> Int {
        items.keys.count { $0.area == area }
    }

    /// Forgets an entry found damaged (and removed by the store) while walking.
    package mutating func drop(_ id: CacheEntryID) {
        items[id] = nil
    }

    private static func names(in folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }
}
