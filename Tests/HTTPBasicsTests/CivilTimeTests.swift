import Glibc
import HTTPBasics
import Synchronization
import Testing

@Suite("Civil time and per-second text")
struct CivilTimeTests {
    @Test("the calendar date and time agree with gmtime from 1901 to 2200, before 1970 included")
    func agreesWithGmtime() {
        // A step that is no multiple of a day, an hour or a minute, so every field varies.
        for seconds in stride(from: -2_177_452_800, through: 7_258_118_400, by: 3_601_337) {
            var time = seconds
            var expected = tm()
            gmtime_r(&time, &expected)
            let civil = CivilTime(secondsSince1970: seconds)
            #expect(civil.year == Int(expected.tm_year) + 1900)
            #expect(civil.month == Int(expected.tm_mon) + 1)
            #expect(civil.day == Int(expected.tm_mday))
            #expect(civil.hour == Int(expected.tm_hour))
            #expect(civil.minute == Int(expected.tm_min))
            #expect(civil.second == Int(expected.tm_sec))
            #expect(civil.weekday == Int(expected.tm_wday))
        }
    }

    @Test("per-second text is formatted once per second and appended each time")
    func formatsOncePerSecond() {
        let formatted = Mutex<[Int]>([])
        let text = PerSecondText { second in
            formatted.withLock { $0.append(second) }
            return Array(String(second).utf8)
        }
        var buffer: [UInt8] = []
        for second in [5, 5, 6, 6, 5] { text.append(second: second, to: &buffer) }
        #expect(String(decoding: buffer, as: UTF8.self) == "55665")
        #expect(formatted.withLock { $0 } == [5, 6, 5])
    }
}
