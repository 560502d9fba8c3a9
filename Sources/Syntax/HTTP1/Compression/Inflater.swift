import CZlib

/// Decompresses a gzip, zlib or raw deflate stream fed in pieces as they arrive, with zlib,
/// holding the output to a limit while it inflates: a small input that would inflate to more (a
/// decompression bomb) fails after at most one buffer beyond the limit, never after inflating it all.
///
/// One stream per instance; the zlib state and its buffer are freed with the instance.
///
/// ```swift
/// let inflater = try Inflater(format: .gzip)
/// var body: [UInt8] = []
/// try compressed.withUnsafeBytes { try inflater.inflate($0, appendingTo: &body, maximumOutputBytes: 1 << 20) }
/// guard inflater.isFinished else { throw InflateError.corrupt }  // truncated
/// ```
public final class Inflater {
    /// Which streams an inflater reads, named after the HTTP content codings (RFC 9110 §8.4.1).
    public enum Format: Sendable {
        /// A gzip stream (RFC 1952); a zlib stream is recognised by its header and read too.
        case gzip
        /// A zlib stream (RFC 1950), or, as browsers accept, a raw deflate stream (RFC 1951) from
        /// servers that send one: told apart by the first two bytes, which a zlib header makes a
        /// multiple of 31.
        case deflate
    }

    public let format: Format
    // The z_stream lives at a fixed address: zlib keeps a pointer back to it and checks it on every call.
    private let stream: UnsafeMutablePointer<z_stream>
    private let window: UnsafeMutableRawBufferPointer
    /// For `.deflate`: whether the first two bytes have been seen and the stream set up for what they say.
    private var hasChosenWrapper: Bool
    /// For `.deflate`: the first byte, when the first piece held only that one.
    private var firstByte: UInt8?

    /// Whether the end of the stream has been read; a stream that ends before it is truncated.
    public private(set) var isFinished = false

    /// Bytes inflated into the output at a time.
    private static let windowBytes = 16384

    /// - Throws: `.outOfMemory` when zlib cannot allocate its state.
    public init(format: Format) throws(InflateError) {
        self.format = format
        hasChosenWrapper = format == .gzip
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        window = .allocate(byteCount: Self.windowBytes, alignment: 1)
        // 15 is the largest window; +32 detects a gzip or zlib header.
        guard c_zlib_inflate_init(stream, format == .gzip ? 15 + 32 : 15) == Z_OK else {
            stream.deallocate()
            window.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        window.deallocate()
    }

    /// Inflates `input`, the next bytes of the stream, appending what they decode to to `output`.
    ///
    /// - Throws: `.outputTooLarge` as soon as `output` would exceed `maximumOutputBytes`; `.corrupt`
    ///   for bytes that are not a valid stream, a checksum that does not match, or bytes after its end.
    public func inflate(_ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], maximumOutputBytes: Int) throws(InflateError) {
        guard !input.isEmpty else { return }
        guard hasChosenWrapper else {
            try chooseWrapper(seeing: input, appendingTo: &output, maximumOutputBytes: maximumOutputBytes)
            return
        }
        guard !isFinished else { throw .corrupt }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            // One byte more than the limit allows is enough to know the output is too large.
            let room = min(Self.windowBytes - 1, max(maximumOutputBytes - output.count, 0)) + 1
            stream.pointee.next_out = window.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(room)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            guard produced <= maximumOutputBytes - output.count else { throw .outputTooLarge(limit: maximumOutputBytes) }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[..<produced]))
            switch status {
            case Z_STREAM_END:
                isFinished = true
                // Another gzip member or stray bytes: neither is a body this inflater reads.
                guard stream.pointee.avail_in == 0 else { throw .corrupt }
                return
            case Z_OK, Z_BUF_ERROR:
                // Done with this piece once zlib took all of it and had room left for more output.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
                guard status == Z_OK else { throw .corrupt }
            case Z_MEM_ERROR:
                throw .outOfMemory
            default:
                throw .corrupt
            }
        }
    }

    /// Sets a `.deflate` stream up for a zlib header or raw deflate once its first two bytes are
    /// known, then inflates what it holds.
    private func chooseWrapper(seeing input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], maximumOutputBytes: Int) throws(InflateError) {
        guard let first = firstByte ?? (input.count > 1 ? input[0] : nil) else {
            firstByte = input[0]
            return
        }
        let second = firstByte == nil ? input[1] : input[0]
        // RFC 1950 §2.2: compression method 8 in the low nibble and a header that is a multiple of 31.
        let isZlib = first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        if !isZlib && inflateReset2(stream, -15) != Z_OK { throw .corrupt }
        hasChosenWrapper = true
        if let held = firstByte {
            firstByte = nil
            try withUnsafeBytes(of: held) { (byte) throws(InflateError) in
                try inflate(byte, appendingTo: &output, maximumOutputBytes: maximumOutputBytes)
            }
        }
        try inflate(input, appendingTo: &output, maximumOutputBytes: maximumOutputBytes)
    }
}
