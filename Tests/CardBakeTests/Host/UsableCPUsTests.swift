import Foundation
@testable import CardBake
import Testing

/// The CPUs a build plans for, read from fake `/proc` and cgroup trees.
@Suite("Usable CPUs")
struct UsableCPUsTests {
    /// A fake file-system root: `/proc/self/cgroup`, `/proc/self/mountinfo`, and cgroup files.
    final class FakeRoot {
        let directory: TemporaryDirectory

        init(cgroup: String, mountinfo: String, files: [String: String]) throws {
            directory = try TemporaryDirectory()
            for (path, text) in files.merging(["proc/self/cgroup": cgroup, "proc/self/mountinfo": mountinfo],
                                              uniquingKeysWith: { $1 }) {
                let url = directory.file(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        /// The CPUs found with `affinity` as the status file's `Cpus_allowed_list`.
        func cpus(affinity: String = "0-63", host: Int = 64) throws -> UsableCPUs {
            try Data("Name:\tcardbake\nCpus_allowed_list:\t\(affinity)\n".utf8)
                .write(to: directory.file("proc/self/status"))
            return UsableCPUs(root: directory.url, host: host)
        }
    }

    static let v2Mount = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
    static let v1Mounts = """
        31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
        32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
        35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory

        """

    @Test("cgroup v2: cpu.max \"200000 100000\" on a 64-core host gives 2 CPUs, and says how it was found")
    func v2Quota() throws {
        let root = try FakeRoot(cgroup: "0::/ci/job\n", mountinfo: Self.v2Mount,
                                files: ["sys/fs/cgroup/ci/job/cpu.max": "200000 100000\n"])
        let cpus = try root.cpus()
        #expect(cpus.count == 2)
        #expect(cpus.quota == CgroupCPUQuota(file: "cpu.max", quota: 200000, period: 100000))
        #expect(cpus.description == "2 (affinity 64 of 64, cgroup cpu.max 200000/100000)")
    }

    @Test("A fractional quota rounds up: 150000/100000 is 2 CPUs, 50000/100000 is 1")
    func roundsUp() throws {
        for (quota, expected) in [("150000 100000", 2), ("50000 100000", 1), ("400000 100000", 4)] {
            let root = try FakeRoot(cgroup: "0::/\n", mountinfo: Self.v2Mount,
                                    files: ["sys/fs/cgroup/cpu.max": quota])
            #expect(try root.cpus().count == expected, "cpu.max \(quota)")
        }
    }

    @Test("cpu.max \"max 100000\" is no quota: the affinity mask decides")
    func v2Unlimited() throws {
        let root = try FakeRoot(cgroup: "0::/a\n", mountinfo: Self.v2Mount,
                                files: ["sys/fs/cgroup/a/cpu.max": "max 100000\n"])
        let cpus = try root.cpus(affinity: "0-2", host: 8)
        #expect(cpus.count == 3)
        #expect(cpus.quota == nil)
        #expect(cpus.description == "3 (affinity 3 of 8, no cgroup CPU quota)")
    }

    @Test("A quota on a parent cgroup limits its children; the tightest on the way up wins")
    func nestedV2() throws {
        let root = try FakeRoot(cgroup: "0::/kubepods/pod1/container\n", mountinfo: Self.v2Mount, files: [
            "sys/fs/cgroup/kubepods/pod1/container/cpu.max": "max 100000",
            "sys/fs/cgroup/kubepods/pod1/cpu.max": "300000 100000",
            "sys/fs/cgroup/kubepods/cpu.max": "1600000 100000",
        ])
        #expect(try root.cpus().count == 3)
    }

    @Test("A container's own view: the mount's root is the process's cgroup, so its files are at the mount point")
    func namespacedMount() throws {
        let mount = "30 23 0:26 /kubepods/pod1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
        let root = try FakeRoot(cgroup: "0::/kubepods/pod1\n", mountinfo: mount,
                                files: ["sys/fs/cgroup/cpu.max": "100000 100000"])
        #expect(try root.cpus().count == 1)
    }

    @Test("cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us, in the cpu controller's hierarchy")
    func v1Quota() throws {
        let root = try FakeRoot(cgroup: "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n",
                                mountinfo: Self.v1Mounts, files: [
                                    "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "250000\n",
                                    "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
                                    // The memory controller's files are not CPU limits.
                                    "sys/fs/cgroup/memory/docker/abc/cpu.cfs_quota_us": "100000\n",
                                    "sys/fs/cgroup/memory/docker/abc/cpu.cfs_period_us": "100000\n",
                                ])
        let cpus = try root.cpus(affinity: "0-15", host: 16)
        #expect(cpus.count == 3)
        #expect(cpus.detected == "affinity 16 of 16, cgroup cpu.cfs_quota_us 250000/100000")
    }

    @Test("cgroup v1 quota -1 is no quota")
    func v1Unlimited() throws {
        let root = try FakeRoot(cgroup: "3:cpu,cpuacct:/\n", mountinfo: Self.v1Mounts, files: [
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
            "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        ])
        #expect(try root.cpus(affinity: "0-3", host: 4).count == 4)
    }

    @Test("The affinity mask wins when it is tighter than the quota")
    func affinityTighter() throws {
        let root = try FakeRoot(cgroup: "0::/\n", mountinfo: Self.v2Mount, files: ["sys/fs/cgroup/cpu.max": "800000 100000"])
        #expect(try root.cpus(affinity: "5", host: 64).count == 1)
    }

    @Test("Missing or garbled files mean no quota, never a failure or zero CPUs", arguments: [
        ("", "", [:]),
        ("0::/a\n", "", [:]),
        ("0::/a\n", UsableCPUsTests.v2Mount, [:]),
        ("0::/a\n", UsableCPUsTests.v2Mount, ["sys/fs/cgroup/a/cpu.max": "lots\n"]),
        ("0::/a\n", UsableCPUsTests.v2Mount, ["sys/fs/cgroup/a/cpu.max": "0 100000\n"]),
        ("3:cpu:/x\n", UsableCPUsTests.v1Mounts, ["sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us": "50000"]),
    ] as [(String, String, [String: String])])
    func missingFiles(cgroup: String, mountinfo: String, files: [String: String]) throws {
        let root = try FakeRoot(cgroup: cgroup, mountinfo: mountinfo, files: files)
        let cpus = try root.cpus(affinity: "0-1", host: 2)
        #expect(cpus.count == 2)
        #expect(cpus.quota == nil)
    }

    @Test("The affinity list counts every CPU of its ranges: \"0-2,8,10-11\" is 6")
    func affinityList() throws {
        let root = try FakeRoot(cgroup: "0::/\n", mountinfo: Self.v2Mount, files: [:])
        #expect(try root.cpus(affinity: "0-2,8,10-11").affinity == 6)
        #expect(try root.cpus(affinity: "0-2,8,10-11").count == 6)
    }

    @Test("No files at all under the root (no /proc): every CPU of the host")
    func noProc() throws {
        let directory = try TemporaryDirectory()
        let cpus = UsableCPUs(root: directory.url, host: 8)
        #expect(cpus.count == 8 && cpus.affinity == 8 && cpus.quota == nil)
    }

    @Test("A garbled affinity list counts as none: every CPU of the host")
    func garbledAffinity() throws {
        let root = try FakeRoot(cgroup: "0::/\n", mountinfo: Self.v2Mount, files: [:])
        #expect(try root.cpus(affinity: "zero", host: 4).count == 4)
        #expect(try root.cpus(affinity: "3-1", host: 4).count == 4)
    }

    @Test("This process: at least one CPU, never more than the host's, and the default jobs follow")
    func current() {
        let cpus = UsableCPUs.current
        #expect(cpus.count >= 1 && cpus.count <= cpus.host && cpus.count <= cpus.affinity)
        #expect(BuildRequest.defaultJobs == cpus.count + 1)
    }
}
