import Glibc
import Testing

@testable import Gateway
@testable import ProcessTuning

@Suite("Start-up pages given back")
struct StartupPagesTests {
    private func header(_ line: String) -> MappingHeader? {
        var line = line
        return line.withUTF8 { MappingHeader($0) }
    }

    @Test("a mapping's header line is parsed; other smaps lines are not headers")
    func headers() throws {
        let code = try #require(header("55cc6eb04000-55cc6fa8a000 r-xp 00384000 fe:00 16222127                   /usr/bin/gateway"))
        #expect(code.range == 0x55cc_6eb0_4000..<0x55cc_6fa8_a000)
        #expect(code.isReadOnlyFile)
        #expect(header("7f0000000000-7f0000001000 r--p 00000000 08:01 42 /usr/lib/libc.so.6")?.isReadOnlyFile == true)
        #expect(header("Rss:                2392 kB") == nil)
        #expect(header("Anonymous:             0 kB") == nil)
        #expect(header("VmFlags: rd ex mr mw me dw sd") == nil)
        #expect(header("7f0000001000-7f0000000000 r--p 00000000 08:01 42 /reversed") == nil)
    }

    @Test("writable, shared, anonymous and kernel mappings are never released")
    func ineligible() {
        let lines = [
            "7f0000000000-7f0000001000 rw-p 00000000 08:01 42 /usr/lib/libc.so.6",
            "7f0000000000-7f0000001000 r--s 00000000 08:01 42 /dev/shm/segment",
            "7f0000000000-7f0000001000 r--p 00000000 00:00 0",
            "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]",
        ]
        for line in lines {
            #expect(header(line)?.isReadOnlyFile == false, "\(line)")
        }
    }

    @Test("releasing gives back this process's code pages, which then run and read as before")
    func releaseKeepsContent() {
        let table: StaticString = "0123456789abcdefghijklmnopqrstuvwxyz"
        let before = Array(UnsafeBufferPointer(start: table.utf8Start, count: table.utf8CodeUnitCount))
        let released = StartupPages.release()
        #expect(released > 0)
        #expect(Array(UnsafeBufferPointer(start: table.utf8Start, count: table.utf8CodeUnitCount)) == before)
        #expect(RequestID.isSane(RequestID.generate()))
    }
}
