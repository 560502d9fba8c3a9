import HTTP1Server

extension EnvironmentReader {
    /// Compression of answers to clients (`COMPRESSION`, `COMPRESSION_MIN_BYTES`), or nil when off.
    func responseCompression() throws(ConfigurationError) -> ResponseCompression? {
        // Read even when off, so that a bad value is reported before it matters.
        let minimumBytes = try integer(.compressionMinimumBytes, in: 0...(1 << 30))
        guard try choice(.compression, from: ["on", "off"]) == "on" else { return nil }
        return ResponseCompression(minimumBytes: minimumBytes)
    }
}
