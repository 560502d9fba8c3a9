import Glibc

/// Gives back the code and constants that only start-up used.
///
/// The kernel maps a file's pages in blocks of 16 around each page a process touches, and keeps
/// them for the life of the process. Start-up runs code from all over the binary and its shared
/// libraries (the dynamic loader, library initialisers, the TLS stack's set-up, configuration
/// parsing), so megabytes of code the gateway never runs again would stay in its resident set.
/// Unmapping every read-only file-backed page drops them; the pages the gateway goes on running
/// come back as minor faults, from the page cache, and the hot ones sit side by side
/// (`hot-functions.order`), so that is a few dozen faults.
///
/// Only mappings that cannot be written and hold no private copy of a page (no `Anonymous`
/// memory in `/proc/self/smaps`) are unmapped, so no content can be lost: such a page reads back
/// exactly as it was, as after the kernel reclaims it under memory pressure. Relocated read-only
/// data (RELRO) is a private copy and stays.
public enum StartupPages {
    /// Unmaps the eligible mappings; returns how many resident bytes they held, 0 when `/proc`
    /// is unreadable.
    @discardableResult
    public static func release() -> Int {
        var released = 0
        var mapping: Range<UInt>?
        var residentKilobytes = 0
        forEachLine(ofFile: "/proc/self/smaps") { line in
            if let header = MappingHeader(line) {
                mapping = header.isReadOnlyFile ? header.range : nil
                residentKilobytes = 0
            } else if mapping != nil, let kilobytes = kilobytes(in: line, labelled: "Rss:") {
                residentKilobytes = kilobytes
            } else if let range = mapping, let anonymous = kilobytes(in: line, labelled: "Anonymous:") {
                mapping = nil
                // Mappings with nothing resident are skipped: each call costs the other threads a TLB flush.
                guard anonymous == 0, residentKilobytes > 0,
                      madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), Int(range.count), MADV_DONTNEED) == 0
                else { return }
                released += residentKilobytes << 10
            }
        }
        return released
    }

    /// The number in a line such as `Rss:     2392 kB`, when it has that label.
    private static func kilobytes(in line: UnsafeBufferPointer<UInt8>, labelled label: StaticString) -> Int? {
        let labelBytes = UnsafeBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount)
        guard line.starts(with: labelBytes) else { return nil }
        var value = 0
        for byte in line[labelBytes.count...] where byte != UInt8(ascii: " ") {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Calls `body` with each line of a file, read in pieces into one buffer: a `/proc` file reports
    /// no size, and a copy of the whole of `smaps` (hundreds of kilobytes) would add to the very set
    /// being trimmed. A line longer than the buffer, which `smaps` never has, is skipped.
    private static func forEachLine(ofFile path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let capacity = 16 << 10
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        while true {
            let count = read(descriptor, buffer + filled, capacity - filled)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            filled += count
            var lineStart = 0
            for index in (filled - count)..<filled where buffer[index] == UInt8(ascii: "\n") {
                body(UnsafeBufferPointer(start: buffer + lineStart, count: index - lineStart))
                lineStart = index + 1
            }
            if lineStart == 0 && filled == capacity {
                filled = 0
            } else {
                buffer.update(from: buffer + lineStart, count: filled - lineStart)
                filled -= lineStart
            }
        }
    }
}
