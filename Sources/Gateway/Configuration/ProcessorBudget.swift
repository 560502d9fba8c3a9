import CSystem
import Glibc

/// How many CPUs the gateway may use, the default for `EVENT_LOOPS`: the CPUs of its affinity
/// mask (a container's cpuset), at most its cgroup CPU quota rounded up (a container's CPU
/// limit), as Go sizes GOMAXPROCS. Foundation's `activeProcessorCount` sees neither, so a
/// gateway limited to one CPU of a 16-core node would otherwise run 16 loops that contend for it.
enum ProcessorBudget {
    static let available: Int = {
        var budget = affinityCount() ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let quota = quotaLimit(cpuMax: contents(of: "/sys/fs/cgroup/cpu.max"))
            ?? quotaLimit(quota: contents(of: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
                          period: contents(of: "/sys/fs/cgroup/cpu/cpu.cfs_period_us")) {
            budget = min(budget, quota)
        }
        return max(1, budget)
    }()

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

    private static func affinityCount() -> Int? {
        let count = Int(csystem_affinity_cpu_count())
        return count > 0 ? count : nil
    }

    private static func contents(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
