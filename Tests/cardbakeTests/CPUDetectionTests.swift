import CardBake
import Foundation
import Testing

/// The default `--jobs` follows the CPUs the process may use, not the host's.
@Suite("CPUs on a shared runner")
struct CPUDetectionTests {
    struct Report: Decodable {
        struct Parallelism: Decodable {
            var cpus: Int
            var detected: String
            var jobs: Int
        }
        var parallelism: Parallelism
    }

    @Test("Under taskset -c 0 the report and --verbose say 1 CPU, and the default --jobs is 2")
    func tasksetOneCPU() throws {
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        try #require(FileManager.default.isExecutableFile(atPath: taskset.path), "taskset (util-linux) is not installed")
        try Sandbox.with { sandbox in
            // Given
            try sandbox.writeCatalog([threeCards[0]])

            // When the build may run on CPU 0 only
            let arguments = ["-c", "0", try Sandbox.binary().path, "build", "catalog.json", "--output", "OUT",
                             "--report", "report.json", "--verbose"]
            let result = try RunningCardbake(binary: taskset, arguments: arguments, directory: sandbox.work,
                                             environment: Sandbox.environment([:]), logs: sandbox.logs).wait()

            // Then
            #expect(result.status == 0, result.comment)
            let report = try JSONDecoder().decode(Report.self, from: sandbox.data("report.json"))
            #expect(report.parallelism.cpus == 1, result.comment)
            #expect(report.parallelism.jobs == 2, result.comment)
            #expect(report.parallelism.detected.hasPrefix("affinity 1 of "), "\(report.parallelism.detected)")
            #expect(result.stderr.contains("CPUs: 1 (affinity 1 of "), result.comment)
            #expect(result.stderr.contains("; 2 jobs"), result.comment)
        }
    }
}
