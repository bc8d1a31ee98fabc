import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing

@Suite("The --report file")
struct BuildReportTests {
    @Test("The report's JSON reads back as the same report, whatever its text holds")
    func roundTrip() throws {
        let awkward = "quote \" backslash \\ slash / newline \n tab \t return \r bell \u{07} nul \u{0} é 猫 🐈"
        let report = BuildReport(cards: [
            .init(id: "alpha", index: 0, status: .rendered, seconds: 0.123456789,
                  stages: StageReport(background: .rendered, images: ["3x": .rendered, "1x": .cached])),
            .init(id: "beta", index: 1, status: .failed, seconds: 1e-7, field: "style.title", reason: awkward),
            .init(id: "gamma", index: 2, status: .cached, seconds: 0, stages: .allCached([1, 2, 3])),
        ], seconds: 12.5, removed: ["cards/old@1x.png", awkward],
           parallelism: .init(cpus: 2, detected: "affinity 2 of 64, cgroup cpu.max 200000/100000", jobs: 3))
        let data = report.encoded()
        #expect(try JSONDecoder().decode(BuildReport.self, from: data) == report)
        #expect(data.last == UInt8(ascii: "\n"))
    }

    @Test("The report is laid out as JSONEncoder lays it out, pretty-printed with sorted keys")
    func layout() throws {
        let report = BuildReport(cards: [
            .init(id: "a/b", index: 0, status: .cached, seconds: 0.5, stages: .allCached([2, 1])),
        ], seconds: 2.25, removed: [], parallelism: .init(cpus: 1, detected: "affinity 1 of 2", jobs: 2))
        var withRemote = report
        var traffic = RemoteCacheTraffic(server: "http://***@cache.example/c", mode: "read")
        (traffic.hits, traffic.downloadedBytes, traffic.refused, traffic.disabled) = (3, 4096, 1, true)
        withRemote.remoteCache = traffic
        for report in [report, withRemote] {
            try Self.expectLaidOutAsJSONEncoder(report)
        }
        #expect(withRemote.summary.hasSuffix("; remote cache: 3 hits (4.1 KB down), 0 uploads (0 B up), stopped after failures"))
    }

    static func expectLaidOutAsJSONEncoder(_ report: BuildReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        // JSONEncoder writes an empty array across two lines; the writer keeps it on one.
        #expect(String(decoding: report.encoded(), as: UTF8.self) == expected.replacingOccurrences(of: "[\n\n  ]", with: "[]"))
    }
}
