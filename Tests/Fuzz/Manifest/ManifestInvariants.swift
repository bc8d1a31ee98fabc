import Foundation
#if canImport(CardBakeManifest)
import CardBakeManifest  // in the unit tests; the fuzzer compiles the manifest's sources into its own module
#endif

// What must hold of whatever `ManifestReader` makes of a manifest's files, however damaged: shared
// by the fuzzer (Tests/Stress/fuzz-manifest) and the unit tests, which run it over the seed corpus.
// (This file is linked into Tests/CardBakeManifestTests.)

enum ManifestInvariants {
    /// A manifest's files in one input: the root, then each page, separated by NUL bytes; each page
    /// is found under the name of its SHA-256, as the reader asks for it.
    static func files(in input: Data) -> (root: Data, pages: [String: Data]) {
        let parts = input.split(separator: 0, omittingEmptySubsequences: false)
        var pages: [String: Data] = [:]
        for part in parts.dropFirst() {
            pages[ManifestPaging.file(for: PortableSHA256.hash(part))] = Data(part)
        }
        return (parts.first.map { Data($0) } ?? Data(), pages)
    }

    /// Reads `input` every way an app and a build do and checks the answers agree; returns the
    /// whole manifest when it reads, nil when it is refused (a ``CardManifest/ReadError`` with a
    /// message). Anything else (a crash, another error, answers that disagree) is a finding.
    @discardableResult
    static func check(_ input: Data) -> CardManifest? {
        let (root, pages) = files(in: input)
        let load: @Sendable (String) throws -> Data = { file in
            guard let page = pages[file] else { throw CocoaError(.fileNoSuchFile) }
            return page
        }
        do {
            let reader = try ManifestReader(root: root, source: "fuzz", digest: PortableSHA256.hash, load: load)
            for position in 0..<min(reader.count, 1_000) {
                _ = reader.size(at: position)
            }
            let whole = try CardManifest(reading: reader)
            require(whole.cards.count == reader.count, "the whole manifest has \(whole.cards.count) of \(reader.count) cards")
            for (position, entry) in whole.cards.enumerated().prefix(1_000) {
                require(try reader.card(at: position) == entry.card, "card(at: \(position)) is not the whole read's")
                if let found = try reader.position(ofID: entry.id) {
                    require(try reader.card(at: found).id == entry.id, "position(ofID: \(entry.id)) names another card")
                }
            }
            // Written again and read back, it is the same manifest.
            var written: [String: Data] = [:]
            let rewritten = try whole.written { bytes in
                let digest = PortableSHA256.hash(bytes)
                written[ManifestPaging.file(for: digest)] = bytes
                return digest
            }
            let pagesWritten = written
            let again = try CardManifest(reading: ManifestReader(root: rewritten, source: "rewritten", digest: PortableSHA256.hash) {
                guard let page = pagesWritten[$0] else { throw CocoaError(.fileNoSuchFile) }
                return page
            })
            require(again == whole, "a manifest written again does not read back the same")
            return whole
        } catch let error as CardManifest.ReadError {
            require(!error.description.isEmpty, "a read error with no message")
            return nil
        } catch {
            fatalError("the manifest reader threw \(type(of: error)), not a ReadError: \(error)")
        }
    }

    private static func require(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String) {
        guard (try? condition()) == true else { fatalError("manifest invariant broken: \(message())") }
    }
}
