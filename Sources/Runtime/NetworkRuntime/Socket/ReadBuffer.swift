/// A growable byte buffer for reads: bytes arrive at the end, the parser consumes them from the front.
///
/// It compacts (moves unread bytes to the front) before it grows, so a connection that parses
/// what it reads keeps a buffer the size of its largest request head.
public struct ReadBuffer: Sendable {
    private var storage: [UInt8]
    private var readerIndex = 0
    private var writerIndex = 0
    private let initialCapacity: Int

    /// A buffer that allocates `capacity` bytes on first use and grows (doubling) only when full.
    public init(capacity: Int = 4096) {
        initialCapacity = max(capacity, 64)
        storage = []
    }

    /// The number of bytes read and not yet consumed.
    public var readableCount: Int { writerIndex - readerIndex }

    public var isEmpty: Bool { readerIndex == writerIndex }

    /// The bytes of storage currently held, for memory accounting and tests.
    public var capacity: Int { storage.count }

    /// Calls `body` with the unconsumed bytes.
    public func withUnsafeReadableBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (start, end) = (readerIndex, writerIndex)
        // `withUnsafeBufferPointer` throws typed errors (`withUnsafeBytes` does not), so no
        // `Result` box, whose generic metadata each call would look up at run time.
        return try storage.withUnsafeBufferPointer { (bytes) throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
        }
    }

    /// Drops `count` bytes from the front.
    public mutating func consume(_ count: Int) {
        readerIndex += min(max(count, 0), readableCount)
        if readerIndex == writerIndex {
            readerIndex = 0
            writerIndex = 0
        }
    }

    /// Removes and returns up to `count` bytes from the front.
    public mutating func take(upTo count: Int) -> ArraySlice<UInt8> {
        let taken = min(max(count, 0), readableCount)
        let slice = storage[readerIndex..<(readerIndex + taken)]
        consume(taken)
        return slice
    }

    /// Appends bytes, as if they had been read.
    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        reserveWritable(bytes.count)
        let start = writerIndex
        storage.replaceSubrange(start..<(start + bytes.count), with: bytes)
        writerIndex += bytes.count
    }

    /// Lets `body` write into the free space at the end (at least `minimum` bytes, after
    /// compacting or growing) and keeps as many bytes as it reports; a negative result keeps none.
    public mutating func writeIntoFreeSpace(
        minimum: Int = 1,
        _ body: (UnsafeMutableRawBufferPointer) -> Int
    ) -> Int {
        reserveWritable(minimum)
        let start = writerIndex
        let written = storage.withUnsafeMutableBytes { bytes in
            body(UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
        }
        if written > 0 { writerIndex += written }
        return written
    }

    /// Makes room for at least `minimum` more bytes (compacting, then growing), so that the next
    /// read may bring that many: a body streamed through moves in large reads, not head-sized ones.
    public mutating func reserveFreeSpace(_ minimum: Int) {
        reserveWritable(minimum)
    }

    /// Frees grown storage when nothing is buffered, so idle connections hold no large buffers.
    public mutating func shrinkIfEmpty() {
        guard isEmpty, storage.count > initialCapacity else { return }
        storage = []
    }

    /// Frees all storage when nothing is buffered; the next read allocates it again. For a
    /// connection that may wait long between reads, such as a stream between events.
    public mutating func releaseIfEmpty() {
        guard isEmpty else { return }
        storage = []
    }

    private mutating func reserveWritable(_ minimum: Int) {
        if storage.count - writerIndex >= minimum { return }
        if readerIndex > 0 {
            let unread = readableCount
            storage.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                base.copyMemory(from: base + readerIndex, byteCount: unread)
            }
            readerIndex = 0
            writerIndex = unread
            if storage.count - writerIndex >= minimum { return }
        }
        var newCapacity = max(storage.count, initialCapacity)
        while newCapacity - writerIndex < minimum { newCapacity *= 2 }
        if storage.isEmpty {
            storage = [UInt8](repeating: 0, count: newCapacity)
        } else {
            storage.append(contentsOf: repeatElement(0, count: newCapacity - storage.count))
        }
    }
}
