import CardBakeManifest
import Foundation

/// A manifest written into memory: its root's bytes and its pages by file, read back through a
/// ``ManifestReader`` that counts the pages it loads.
final class WrittenManifest: @unchecked Sendable {
    let root: Data
    let pages: [String: Data]
    private let lock = NSLock()
    private var loads: [String] = []

    init(_ manifest: CardManifest) throws {
        var pages: [String: Data] = [:]
        root = try manifest.written { bytes in
            let digest = PortableSHA256.hash(bytes)
            pages[ManifestPaging.file(for: digest)] = bytes
            return digest
        }
        self.pages = pages
    }

    init(root: Data, pages: [String: Data]) {
        self.root = root
        self.pages = pages
    }

    /// A reader of the manifest, loading pages from ``pages``.
    func reader(source: String = "manifest.json") throws(CardManifest.ReadError) -> ManifestReader {
        try ManifestReader(root: root, source: source, digest: PortableSHA256.hash) { [self] file in
            lock.withLock { loads.append(file) }
            guard let page = pages[file] else { throw CocoaError(.fileNoSuchFile) }
            return page
        }
    }

    /// The files the readers made so far loaded, in order; emptied.
    func takeLoads() -> [String] {
        lock.withLock {
            defer { loads = [] }
            return loads
        }
    }

    /// The root decoded as JSON, for tests that change it.
    var rootJSON: [String: Any] {
        get throws { try JSONSerialization.jsonObject(with: root) as! [String: Any] }
    }

    /// The page files one has that `other` does not.
    func pagesNotIn(_ other: WrittenManifest) -> Set<String> {
        Set(pages.keys).subtracting(other.pages.keys)
    }
}
