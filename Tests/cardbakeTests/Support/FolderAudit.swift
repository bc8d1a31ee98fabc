import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation

/// What must hold of a cache folder and an output folder whatever happened to the builds that
/// wrote them (signals, `kill -9`, a full disk): each function returns the problems it finds,
/// empty when there are none.
enum FolderAudit {
    /// Every `cas/` blob hashes to its name, every `ac/` entry ends with SHA-256(key ‖ record),
    /// and no temporary file is left.
    static func cache(_ folder: URL) -> [String] {
        files(in: folder).compactMap { path in
            let parts = path.split(separator: "/").map(String.init)
            let name = parts.last ?? path
            if name.hasPrefix(".tmp") { return "temporary file \(path)" }
            guard parts.count == 3, ["ac", "cas"].contains(parts[0]), let named = ContentDigest(hex: name) else { return nil }
            guard let entry = try? Data(contentsOf: folder.appendingPathComponent(path)) else { return "unreadable \(path)" }
            if parts[0] == "cas" {
                return ContentDigest.sha256(entry) == named ? nil : "cas/ blob \(name) does not hash to its name"
            }
            let record = entry.dropLast(32)
            let intact = entry.count >= 32 && ContentDigest.sha256(named.bytes + record).bytes == Array(entry.suffix(32))
            return intact ? nil : "ac/ entry \(name) fails its checksum"
        }
    }

    /// The folder holds `manifest.json` with its pages (and those of the manifest before it, which a
    /// build keeps until the next), each hashing to its name, the preview gallery (`index.html`,
    /// `index-version.js`, the chunks in `gallery/` the page names, each hashing to its name) and
    /// exactly the files the manifest lists (besides `foreign`, files that are not cardbake's), each
    /// of the listed size and SHA-256; no temporary file, no note of an unfinished build.
    static func output(_ folder: URL, foreign: Set<String> = []) -> [String] {
        let manifestURL = folder.appendingPathComponent("manifest.json")
        guard let manifest = try? ManifestFile.read(from: manifestURL) else {
            return ["no readable manifest in \(folder.path)"]
        }
        var problems: [String] = []
        var listed: Set<String> = ["manifest.json", "index.html", "index-version.js"]
        problems += ["index.html", "index-version.js"].filter { !FileManager.default.fileExists(
            atPath: folder.appendingPathComponent($0).path) }.map { "missing \($0)" }
        let (chunks, chunkProblems) = galleryChunks(in: folder)
        listed.formUnion(chunks)
        problems += chunkProblems
        for image in manifest.cards.flatMap(\.images.values) {
            listed.insert(image.file)
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(image.file)) else {
                problems.append("missing \(image.file)")
                continue
            }
            if data.count != image.bytes || ContentDigest.sha256(data).description != image.sha256 {
                problems.append("\(image.file) is not the file the manifest lists")
            }
        }
        for page in files(in: folder) where page.hasPrefix("manifest/") {
            let name = String(page.dropFirst("manifest/".count).dropLast(".json".count))
            guard page.hasSuffix(".json"), let data = try? Data(contentsOf: folder.appendingPathComponent(page)),
                  ContentDigest.sha256(data).description == name else { continue }
            listed.insert(page)
        }
        let extra = Set(files(in: folder)).subtracting(listed).subtracting(foreign)
        problems += extra.sorted().map { "not in the manifest: \($0)" }
        return problems
    }

    /// The gallery's chunk files, `gallery/<SHA-256>.js`, that the page names (in its data, each chunk as
    /// `["<SHA-256>",<cards>]`), and the problems with
    /// them: a chunk the page names missing or not hashing to its name.
    static func galleryChunks(in folder: URL) -> (files: Set<String>, problems: [String]) {
        let page = String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("index.html"))) ?? Data(), as: UTF8.self)
        let named = Set(page.matches(of: /\["([0-9a-f]{64})",/).map { "gallery/\($0.1).js" })
        let problems = named.sorted().compactMap { file -> String? in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)) else { return "missing \(file)" }
            return "gallery/\(ContentDigest.sha256(data)).js" == file ? nil : "\(file) does not hash to its name"
        }
        return (named, problems)
    }

    /// Paths of the regular files under `folder`, relative to it, hidden ones included.
    static func files(in folder: URL) -> [String] {
        let found = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return found.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path,
                                                  isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}
