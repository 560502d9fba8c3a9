import CZlib

/// Test bodies compressed by zlib itself, in the three wrappings HTTP's codings use.
enum Compressed {
    enum Wrapping: Int32 {
        case gzip = 31  // 15 + 16
        case zlib = 15
        case raw = -15
    }

    /// `bytes` deflated at zlib's default level in one go.
    static func bytes(_ bytes: [UInt8], _ wrapping: Wrapping) -> [UInt8] {
        // At a fixed address: zlib checks its pointer back to the stream on every call.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let started = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, wrapping.rawValue, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        precondition(started == Z_OK, "deflateInit2_ failed")
        defer { deflateEnd(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))))
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = output.baseAddress
                stream.pointee.avail_out = uInt(output.count)
                precondition(deflate(stream, Z_FINISH) == Z_STREAM_END, "deflate did not finish")
                return output.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output[..<produced])
    }

    /// `count` bytes of JSON-like text that compresses as real answers do.
    static func sampleText(count: Int) -> [UInt8] {
        var text: [UInt8] = []
        var index = 0
        while text.count < count {
            text += Array("{\"id\":\(index),\"name\":\"item \(index * 7919 % 1000)\",\"price\":\(index % 97).5},".utf8)
            index += 1
        }
        return Array(text.prefix(count))
    }
}
