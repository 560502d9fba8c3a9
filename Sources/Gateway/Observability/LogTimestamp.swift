import Glibc

/// UTC timestamps for log lines, `2026-11-22T01:05:23.123Z`, formatted without Foundation.
enum LogTimestamp {
    static func append(to bytes: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDigits(Int(parts.tm_year) + 1900, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(Int(now.tv_nsec / 1_000_000), count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
