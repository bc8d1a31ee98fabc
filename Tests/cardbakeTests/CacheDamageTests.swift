import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeManifest
import Foundation
import Testing

/// A flipped byte in the cache is found when the entry is read: the card is rendered again and the
/// damaged entry replaced, never served.
@Suite("Cache damage")
struct CacheDamageTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        /// Every blob of `cas/`: the records still name them.
        case blobs
        /// Everything else but `VERSION`: action results, and any index or stat cache kept beside them.
        case records
        /// Every file but `VERSION`.
        case everything

        func applies(to path: String) -> Bool {
            guard path != "VERSION" else { return false }
            switch self {
            case .blobs: return path.hasPrefix("cas/")
            case .records: return !path.hasPrefix("cas/")
            case .everything: return true
            }
        }

        var testDescription: String { rawValue }
    }

    @Test("A flipped byte in the cache is detected: the cards are rendered again, identical, and the cache repaired",
          arguments: Damage.allCases)
    func flippedByte(damage: Damage) throws {
        try Sandbox.with { sandbox in
            // Given a build, then a byte flipped in the middle of cache files, and the output removed
            // so that every card must come from the cache
            try sandbox.writeCatalog(threeCards, style: ["scales": [1, 2]])
            try #require(try sandbox.run(["build", "catalog.json", "--output", "OUT"]).status == 0)
            let original = try Dictionary(uniqueKeysWithValues: sandbox.fileNames("OUT").filter { $0.hasSuffix(".jpg") }
                .map { ($0, try sandbox.data("OUT/\($0)")) })
            let damaged = FolderAudit.files(in: sandbox.url(".cardbake")).filter(damage.applies)
            try #require(!damaged.isEmpty)
            for path in damaged {
                var bytes = try sandbox.data(".cardbake/\(path)")
                bytes[bytes.count / 2] ^= 0x01
                try sandbox.write(bytes, to: ".cardbake/\(path)")
            }
            try sandbox.remove("OUT")

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--report", "report.json"])

            // Then every card was rendered again, to the same bytes, and the cache holds no damaged entry
            #expect(result.status == 0, result.comment)
            let report = try ReportFile.read(from: sandbox.url("report.json"))
            #expect(report.cards.map(\.status) == Array(repeating: "rendered", count: threeCards.count), result.comment)
            for (file, bytes) in original {
                #expect(try sandbox.data("OUT/\(file)") == bytes, "\(file) differs")
            }
            #expect(FolderAudit.output(sandbox.url("OUT")) == [])
            #expect(FolderAudit.cache(sandbox.url(".cardbake")) == [])
            let check = try sandbox.run(["check", "catalog.json", "--output", "OUT"])
            #expect(check.status == 0, check.comment)
        }
    }
}
