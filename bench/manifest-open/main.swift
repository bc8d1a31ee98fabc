import CardBakeKit
import Foundation

// What an app pays to open a manifest and show its first screen, through CardBakeKit alone:
// the root read and decoded, the first 8 cards, then one card by position in the middle and one by
// ID, each timed (ContinuousClock) with the bytes it read (the root's and every page's).
//
//     manifest-open OUTPUT/manifest.json CARD_ID
//
// Prints one JSON object; bench/scale.py runs it.

/// The bytes and files read so far through the reader's `load`.
final class ReadCount: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = 0
    private var files = 0

    func add(_ data: Data) { lock.withLock { bytes += data.count; files += 1 } }
    var total: (bytes: Int, files: Int) { lock.withLock { (bytes, files) } }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: manifest-open MANIFEST.json CARD_ID\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
let folder = url.deletingLastPathComponent()
let read = ReadCount()
let clock = ContinuousClock()
var figures: [String: Any] = [:]

/// Runs `step`, recording its milliseconds and the bytes and files it read under `name`.
@MainActor func measure<Value>(_ name: String, _ step: () throws -> Value) throws -> Value {
    let before = read.total
    let start = clock.now
    let value = try step()
    let elapsed = clock.now - start
    let after = read.total
    figures[name] = ["ms": elapsed / .milliseconds(1),
                     "bytes": after.bytes - before.bytes, "files": after.files - before.files]
    return value
}

do {
    let manifest = try measure("open") {
        let root = try Data(contentsOf: url)
        read.add(root)
        return try ManifestReader(root: root, source: url.path, digest: PortableSHA256.hash) { file in
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            read.add(data)
            return data
        }
    }
    let firstScreen = try measure("first_screen") { try manifest.cards(in: 0..<min(8, manifest.count)) }
    let middle = try measure("card_in_middle") { try manifest.card(at: manifest.count / 2) }
    let byID = try measure("card_by_id") { try manifest.card(id: arguments[2]) }
    guard firstScreen.count == min(8, manifest.count), middle.id.isEmpty == false, byID?.id == arguments[2] else {
        FileHandle.standardError.write(Data("manifest-open: \(url.path) has no card \(arguments[2])\n".utf8))
        exit(1)
    }
    figures["count"] = manifest.count
    let output = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
    print(String(decoding: output, as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("manifest-open: \(error)\n".utf8))
    exit(1)
}
