import Testing

@testable import NetworkRuntime

@Suite struct ReadBufferTests {
    @Test func appendsConsumesAndCompactsBeforeGrowing() {
        var buffer = ReadBuffer(capacity: 64)
        buffer.append(contentsOf: Array(repeating: UInt8(1), count: 60))
        #expect(buffer.capacity == 64)
        buffer.consume(50)
        buffer.append(contentsOf: Array(repeating: UInt8(2), count: 40))
        #expect(buffer.capacity == 64)
        #expect(buffer.readableCount == 50)
        buffer.withUnsafeReadableBytes { bytes in
            #expect(Array(bytes.prefix(10)) == Array(repeating: 1, count: 10))
            #expect(Array(bytes.suffix(40)) == Array(repeating: 2, count: 40))
        }
    }

    @Test func growsWhenFullAndShrinksWhenEmptied() {
        var buffer = ReadBuffer(capacity: 64)
        buffer.append(contentsOf: Array(repeating: UInt8(7), count: 200))
        #expect(buffer.capacity >= 200)
        #expect(Array(buffer.take(upTo: 3)) == [7, 7, 7])
        buffer.consume(1000)
        #expect(buffer.isEmpty)
        buffer.shrinkIfEmpty()
        #expect(buffer.capacity == 0)
    }

    @Test func writesIntoFreeSpaceKeepsOnlyReportedBytes() {
        var buffer = ReadBuffer(capacity: 64)
        let written = buffer.writeIntoFreeSpace { space in
            space[0] = 42
            return 1
        }
        #expect(written == 1)
        #expect(buffer.readableCount == 1)
        _ = buffer.writeIntoFreeSpace { _ in -1 }
        #expect(buffer.readableCount == 1)
    }

    @Test func releasesStorageOnlyWhenEmpty() {
        var buffer = ReadBuffer(capacity: 64)
        buffer.append(contentsOf: [1, 2, 3])
        buffer.releaseIfEmpty()
        #expect(buffer.capacity == 64)
        buffer.consume(3)
        buffer.releaseIfEmpty()
        #expect(buffer.capacity == 0)
    }

    @Test func streamingRoomHoldsNoBufferWhileReadsAreSmall() {
        var room = StreamingReadRoom()
        var buffer = ReadBuffer(capacity: 4096)
        room.prepare(&buffer)
        #expect(buffer.capacity == 0)
        buffer.append(contentsOf: [UInt8](repeating: 1, count: 4096))
        room.record(read: 4096)
        buffer.consume(4096)
        room.prepare(&buffer)
        #expect(buffer.capacity >= 64 * 1024)
        buffer.append(contentsOf: [1])
        room.record(read: 1)
        room.prepare(&buffer)
        #expect(buffer.capacity >= 64 * 1024, "a partial piece keeps its buffer")
        buffer.consume(1)
        room.prepare(&buffer)
        #expect(buffer.capacity == 0)
    }
}
