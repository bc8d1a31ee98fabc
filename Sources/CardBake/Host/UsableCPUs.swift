import Foundation
import Glibc

/// How many CPUs this process may keep busy: the fewest of its affinity mask (`taskset`,
/// `docker --cpuset-cpus`) and its cgroup's CPU quota rounded up (`docker --cpus`, a Kubernetes
/// CPU limit), never more than the host has. The default `--jobs`, libvips' threads and malloc's
/// arenas follow it, so a container limited to 2 CPUs on a 64-core host does not start 65 workers.
package struct UsableCPUs: Sendable, Equatable, CustomStringConvertible {
    /// CPUs to plan for, at least 1.
    package let count: Int
    /// CPUs in the affinity mask.
    package let affinity: Int
    /// CPUs online on the host.
    package let host: Int
    /// The tightest cgroup quota on the way from the process's cgroup to its hierarchy's root; nil
    /// when there is none (`max`, `-1`) or no cgroup file could be read.
    package let quota: CgroupCPUQuota?

    /// What this process may use, found once.
    package static let current = UsableCPUs(root: URL(fileURLWithPath: "/"),
                                            host: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Reads the affinity mask (`Cpus_allowed_list` of `/proc/self/status`, the mask
    /// `sched_getaffinity` returns), `/proc/self/cgroup`, `/proc/self/mountinfo` and the cgroup
    /// files under `root` (the file system's root; a fake tree in tests). A missing or unreadable
    /// mask means every CPU of the host; missing cgroup files mean no quota.
    package init(root: URL, host: Int) {
        self.host = host
        affinity = Self.affinity(under: root) ?? host
        quota = CgroupCPUQuota.tightest(under: root)
        count = max(1, min(affinity, host, quota?.cpus ?? .max))
    }

    /// `2 (affinity 2 of 64, cgroup cpu.max 200000/100000)`.
    package var description: String { "\(count) (\(detected))" }

    /// `affinity 2 of 64, cgroup cpu.max 200000/100000`, or `…, no cgroup CPU quota`.
    package var detected: String {
        "affinity \(affinity) of \(host), " + (quota.map { "cgroup \($0)" } ?? "no cgroup CPU quota")
    }

    /// The CPUs of `Cpus_allowed_list: 0-3,8,10-11` in `/proc/self/status`; nil when absent or garbled.
    private static func affinity(under root: URL) -> Int? {
        guard let status = try? String(contentsOf: root.appendingPathComponent("proc/self/status"), encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return nil
        }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = range.trimmingCharacters(in: .whitespaces).split(separator: "-").map { Int($0) }
            guard let first = bounds.first ?? nil, let last = bounds.last ?? nil, bounds.count <= 2, first <= last else {
                return nil
            }
            count += last - first + 1
        }
        return count > 0 ? count : nil
    }
}

/// A cgroup's CPU bandwidth limit: `quota` microseconds of CPU time per `period`.
package struct CgroupCPUQuota: Sendable, Equatable, CustomStringConvertible {
    /// `cpu.max` (cgroup v2) or `cpu.cfs_quota_us` (v1).
    package let file: String
    package let quota: Int
    package let period: Int

    /// The CPUs the quota keeps busy, rounded up: 150000/100000 is 2.
    package var cpus: Int { max(1, (quota + period - 1) / period) }

    /// `cpu.max 200000/100000`.
    package var description: String { "\(file) \(quota)/\(period)" }

    /// The quota with the fewest CPUs over every cgroup hierarchy of the process (v2, and v1's
    /// `cpu` controller), looking at its own cgroup and every parent up to the hierarchy's mount.
    static func tightest(under root: URL) -> CgroupCPUQuota? {
        guard let memberships = read("proc/self/cgroup", under: root),
              let mounts = read("proc/self/mountinfo", under: root) else { return nil }
        let mountLines = mounts.split(separator: "\n").compactMap(CgroupMount.init(line:))
        var found: [CgroupCPUQuota] = []
        for line in memberships.split(separator: "\n") {
            // hierarchy-id:controllers:path; v2 has an empty controller list.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let isV2 = fields[0] == "0" && controllers.isEmpty
            guard isV2 || controllers.contains("cpu"),
                  let mount = mountLines.first(where: { isV2 ? $0.isV2 : $0.hasCPUController }) else { continue }
            for folder in mount.folders(from: String(fields[2])) {
                let quota = isV2 ? v2(in: folder, under: root) : v1(in: folder, under: root)
                if let quota { found.append(quota) }
            }
        }
        return found.min { $0.cpus < $1.cpus }
    }

    /// `cpu.max`: "quota period", or "max period" for none.
    private static func v2(in folder: String, under root: URL) -> CgroupCPUQuota? {
        guard let text = read(folder + "/cpu.max", under: root) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]),
              quota > 0, period > 0 else { return nil }
        return CgroupCPUQuota(file: "cpu.max", quota: quota, period: period)
    }

    /// `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`.
    private static func v1(in folder: String, under root: URL) -> CgroupCPUQuota? {
        guard let quotaText = read(folder + "/cpu.cfs_quota_us", under: root),
              let periodText = read(folder + "/cpu.cfs_period_us", under: root),
              let quota = Int(quotaText.trimmingCharacters(in: .whitespacesAndNewlines)),
              let period = Int(periodText.trimmingCharacters(in: .whitespacesAndNewlines)),
              quota > 0, period > 0 else { return nil }
        return CgroupCPUQuota(file: "cpu.cfs_quota_us", quota: quota, period: period)
    }

    private static func read(_ path: String, under root: URL) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

/// A cgroup hierarchy's mount, from one line of `/proc/self/mountinfo`.
private struct CgroupMount {
    /// The cgroup the mount shows at its mount point (`/` unless a container sees only its own part).
    let root: String
    let mountPoint: String
    let isV2: Bool
    let hasCPUController: Bool

    /// `36 25 0:31 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw`; nil for other file systems.
    init?(line: Substring) {
        let halves = line.split(separator: " - ", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let before = halves[0].split(separator: " "), after = halves[1].split(separator: " ")
        guard before.count >= 5, after.count >= 3, after[0] == "cgroup2" || after[0] == "cgroup" else { return nil }
        root = String(before[3])
        mountPoint = String(before[4])
        isV2 = after[0] == "cgroup2"
        hasCPUController = !isV2 && after[2].split(separator: ",").contains("cpu")
    }

    /// The folders (relative to the file system's root) of the cgroup at `path` and of each parent
    /// up to the mount point, the cgroup's own first.
    func folders(from path: String) -> [String] {
        var relative = path
        if root != "/", relative == root || relative.hasPrefix(root + "/") {
            relative = String(relative.dropFirst(root.count))
        }
        var parts = relative.split(separator: "/").map(String.init)
        var folders: [String] = []
        while true {
            folders.append(([mountPoint] + parts).joined(separator: "/"))
            guard !parts.isEmpty else { return folders }
            parts.removeLast()
        }
    }
}
