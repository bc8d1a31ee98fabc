import CardBakeCache
import CardBakeCatalog
import CardBakeManifest
import Foundation

/// The output folder's layout, and what its files hold as the stat cache sees them.
struct OutputFolder: Sendable {
    let directory: URL
    let statCache: StatCache

    var manifestURL: URL { directory.appendingPathComponent(CardManifest.fileName) }

    /// Relative path of a card's bitmap at one scale.
    static func file(for card: Card, scale: Int) -> String {
        "cards/\(card.id)@\(scale)x.\(card.style.output.kind.fileExtension)"
    }

    /// Relative paths of a card's bitmaps, in the order of its style's scales.
    static func files(for card: Card) -> [String] {
        card.style.scales.map { file(for: card, scale: $0) }
    }

    /// The absolute, normalised path of `file` (relative to the folder).
    func path(of file: String) -> String {
        directory.fileSystemPath + "/" + file
    }

    /// Whether `file` holds the bytes with `digest`.
    func holds(_ digest: ContentDigest, as file: String) -> Bool {
        (try? statCache.digest(ofFileAtPath: path(of: file))) == digest
    }

    /// Removes `files` (paths relative to `directory`) that are plain names inside `cards/`; a
    /// manifest read from disk could name anything. Returns what it removed, sorted.
    static func remove(_ files: Set<String>, in directory: URL) -> [String] {
        let removable = files.filter(isCardFile).sorted()
        for file in removable {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        return removable
    }

    private static func isCardFile(_ file: String) -> Bool {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0] == "cards" && !parts[1].isEmpty && !parts[1].hasPrefix(".")
    }
}
