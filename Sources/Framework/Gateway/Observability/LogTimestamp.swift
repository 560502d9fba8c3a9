import ASCIISyntax
import Glibc
import HTTPBasics

/// UTC timestamps for log lines, `2026-11-22T01:05:23.123Z`, formatted without Foundation.
enum LogTimestamp {
    /// Every log line carries one; all but the milliseconds change once a second.
    private static let dateAndTime = PerSecondText { seconds in
        let time = CivilTime(secondsSince1970: seconds)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        DecimalDigits.append(time.year, minimumCount: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        DecimalDigits.append(time.month, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        DecimalDigits.append(time.day, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        DecimalDigits.append(time.hour, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(time.minute, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(time.second, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        return bytes
    }

    static func append(to bytes: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        dateAndTime.append(second: now.tv_sec, to: &bytes)
        DecimalDigits.append(now.tv_nsec / 1_000_000, minimumCount: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }
}
