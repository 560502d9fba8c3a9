import Glibc
import HTTPBasics

/// UTC timestamps for log lines, `2026-11-22T01:05:23.123Z`, formatted without Foundation.
enum LogTimestamp {
    static func append(to bytes: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        DecimalDigits.append(Int(parts.tm_year) + 1900, minimumCount: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        DecimalDigits.append(Int(parts.tm_mon) + 1, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        DecimalDigits.append(Int(parts.tm_mday), minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        DecimalDigits.append(Int(parts.tm_hour), minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(Int(parts.tm_min), minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(Int(parts.tm_sec), minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        DecimalDigits.append(Int(now.tv_nsec / 1_000_000), minimumCount: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }
}
