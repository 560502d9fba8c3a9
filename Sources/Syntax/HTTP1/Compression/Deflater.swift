import CZlib

/// Compresses whole bodies into gzip streams (RFC 1952) with zlib, one body per call, for
/// answers whose client accepts the `gzip` content coding.
///
/// The zlib state is sized for the bodies to come (a window and a match finder's hash table no
/// larger than the body needs: zlib zeroes the table for every stream, which costs a small
/// answer more than compressing it) and freed with the instance.
///
/// ```swift
/// let deflater = try Deflater(level: 1, inputBytes: body.count)
/// let compressed = try deflater.gzip(body)
/// ```
public final class Deflater {
    // The z_stream lives at a fixed address: zlib keeps a pointer back to it and checks it on every call.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether a body has been compressed since the state was set up or reset.
    private var isUsed = false

    /// The level the gateway compresses answers at: see docs/PERFORMANCE.md for how levels compare.
    public static let defaultLevel = 1

    /// - Parameters:
    ///   - level: zlib's level, 0 to 9.
    ///   - inputBytes: the size of the bodies to come, which sets the window: from 512 bytes up to
    ///     zlib's largest, 32 KiB; a larger body still compresses, with matches up to 32 KiB back.
    /// - Throws: `.invalidLevel` for a level outside 0...9; `.outOfMemory` when zlib cannot
    ///   allocate its state.
    public init(level: Int = Deflater.defaultLevel, inputBytes: Int = 1 << 15) throws(DeflateError) {
        guard (0...9).contains(level) else { throw .invalidLevel(level) }
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // +16 writes a gzip header and trailer instead of zlib's. The memory level sizes the hash
        // table at twice the window and the symbol buffer at the window, so that a body the window
        // covers goes out as one block; 8 is zlib's default and what its largest window gets.
        let windowBits = Self.windowBits(for: inputBytes)
        guard c_zlib_deflate_init(stream, Int32(level), Int32(windowBits) + 16, Int32(min(windowBits - 6, 8))) == Z_OK else {
            stream.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// `body` compressed into one gzip member; the deflater is ready for another body after.
    ///
    /// - Throws: `.incomplete` if zlib does not finish the stream in the room it said it needs.
    public func gzip(_ body: [UInt8]) throws(DeflateError) -> [UInt8] {
        // Reset before a second body rather than after each: a deflater used once, as most are,
        // zeroes its hash table once.
        if isUsed { deflateReset(stream) }
        isUsed = true
        let bound = Int(deflateBound(stream, uLong(body.count)))
        var status = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            body.withUnsafeBufferPointer { input in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(bound)
                status = deflate(stream, Z_FINISH)
                count = bound - Int(stream.pointee.avail_out)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
            }
        }
        guard status == Z_STREAM_END else { throw .incomplete }
        return output
    }

    /// The next piece of one gzip member compressed as a body streams: everything `piece` holds
    /// comes out at once (zlib's sync flush, a few bytes dearer than letting it wait), so a reader
    /// sees each piece as soon as the writer sent it; `finishing` ends the member (its trailer
    /// after `piece`, which may be empty). A deflater that compresses a stream serves that stream only.
    ///
    /// - Throws: `.incomplete` if zlib reports an error.
    public func gzipPiece(_ piece: [UInt8], finishing: Bool) throws(DeflateError) -> [UInt8] {
        isUsed = true
        var output: [UInt8] = []
        var status = Z_OK
        // A sync flush adds at most a few bytes to deflate's bound; the loop covers any shortfall.
        let room = Int(deflateBound(stream, uLong(piece.count))) + 64
        piece.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            repeat {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: room))
                output.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress! + start
                    stream.pointee.avail_out = uInt(room)
                    status = deflate(stream, finishing ? Z_FINISH : Z_SYNC_FLUSH)
                }
                output.removeLast(Int(stream.pointee.avail_out))
            } while status == Z_OK && stream.pointee.avail_out == 0
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        guard status == Z_OK || status == Z_BUF_ERROR || (finishing && status == Z_STREAM_END) else { throw .incomplete }
        return output
    }

    /// The smallest window (log2 of its bytes, 9 to 15) that reaches back over all of a body of
    /// `inputBytes`: zlib keeps 262 bytes of lookahead out of the window's reach.
    static func windowBits(for inputBytes: Int) -> Int {
        let reach = max(inputBytes, 1) + 262
        let bits = Int.bitWidth - (reach - 1).leadingZeroBitCount
        return min(max(bits, 9), 15)
    }
}
