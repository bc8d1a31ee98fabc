import CardBakeManifest
import Foundation
import Testing

/// The manifest fuzzer's invariants over its seed corpus, and over damaged copies of it, in every
/// test run: what Tests/Stress/fuzz-manifest checks for hours, checked here on the seeds.
@Suite("The manifest fuzzer's seeds")
struct ManifestFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("../Fuzz/manifest-corpus").standardizedFileURL

    static var seeds: [URL] {
        (try? FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil))?.sorted { $0.path < $1.path } ?? []
    }

    @Test("Every seed reads whole, agrees with itself read lazily, and writes back to the same manifest")
    func seedsRead() throws {
        #expect(Self.seeds.count >= 3)
        for seed in Self.seeds {
            #expect(ManifestInvariants.check(try Data(contentsOf: seed)) != nil, "\(seed.lastPathComponent)")
        }
    }

    @Test("A seed damaged byte by byte is read or refused with a message, never a crash")
    func damagedSeeds() throws {
        for seed in Self.seeds {
            let bytes = try Data(contentsOf: seed)
            for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
                var damaged = bytes
                damaged[offset] ^= 0x5A
                ManifestInvariants.check(damaged)
                ManifestInvariants.check(bytes.prefix(offset))
            }
        }
    }
}
