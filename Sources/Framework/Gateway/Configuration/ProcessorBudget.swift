import Glibc
import HTTPBasics

/// How many CPUs the gateway may use, the default for `EVENT_LOOPS`: the CPUs of its affinity
/// mask (a container's cpuset), at most its cgroup CPU quota rounded up (a container's CPU
/// limit), as Go sizes GOMAXPROCS. Foundation's `activeProcessorCount` sees neither, so a
/// gateway limited to one CPU of a 16-core node would otherwise run 16 loops that contend for it.
/// The quota is read at the root of the cgroup mount, which inside a container is the
/// container's own cgroup; outside one, a quota on a nested cgroup is not seen.
enum ProcessorBudget {
    static let available: Int = {
        var budget = affinityCount(status: contents(of: "/proc/self/status")) ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let quota = quotaLimit(cpuMax: contents(of: "/sys/fs/cgroup/cpu.max"))
            ?? quotaLimit(quota: contents(of: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
                          period: contents(of: "/sys/fs/cgroup/cpu/cpu.cfs_period_us")) {
            budget = min(budget, quota)
        }
        return max(1, budget)
    }()

    /// The CPUs of the affinity mask that `/proc/self/status` gives as `Cpus_allowed:`, comma-separated
    /// hexadecimal words (`ff,ffffffff`); nil when the line is missing or malformed. Read from there
    /// because Glibc's Swift module leaves out `sched_getaffinity`.
    static func affinityCount(status: String?) -> Int? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for word in line.dropFirst("Cpus_allowed:".count).split(separator: ",") {
            guard let bits = UInt64(word.trimmingWhitespace, radix: 16) else { return nil }
            count += bits.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }

    /// The CPUs a cgroup v2 `cpu.max` ("150000 100000", or "max 100000" for none) allows, rounded up.
    static func quotaLimit(cpuMax: String?) -> Int? {
        guard let fields = cpuMax?.split(whereSeparator: \.isWhitespace), fields.count == 2 else { return nil }
        return quotaLimit(quota: String(fields[0]), period: String(fields[1]))
    }

    /// The CPUs a quota and period in microseconds allow, rounded up; nil for no quota ("max", -1).
    static func quotaLimit(quota: String?, period: String?) -> Int? {
        guard let quota = integer(quota), quota > 0, let period = integer(period), period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The number a cgroup file holds, without its line end.
    private static func integer(_ text: String?) -> Int? {
        text?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }

    /// A small text file's contents; nil when it cannot be read.
    private static func contents(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            let count = fread(&buffer, 1, buffer.count, file)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
