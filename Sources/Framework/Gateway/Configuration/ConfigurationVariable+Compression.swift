extension ConfigurationVariable {
    static let compression = ConfigurationVariable(
        "COMPRESSION", default: "on",
        "on: gzip JSON and text answers for clients whose Accept-Encoding takes it (Vary: Accept-Encoding on each); off: never")
    static let compressionMinimumBytes = ConfigurationVariable(
        "COMPRESSION_MIN_BYTES", default: "1024", "smallest answer body gzipped; smaller ones go out as they are")

    /// The variables of compression to clients, in the order `--help` lists them.
    static let clientCompression: [ConfigurationVariable] = [compression, compressionMinimumBytes]

    static func upstreamCompression(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "COMPRESSION", default: "on",
            "on: ask \(upstream.name) for gzip or deflate answers and inflate them (within the body limit); off: ask for identity")
    }
}
