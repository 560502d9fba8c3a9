extension ConfigurationVariable {
    static func upstreamCompression(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "COMPRESSION", default: "on",
            "on: ask \(upstream.name) for gzip or deflate answers and inflate them (within the body limit); off: ask for identity")
    }
}
