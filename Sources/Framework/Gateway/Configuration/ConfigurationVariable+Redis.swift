extension ConfigurationVariable {
    static let redisURL = ConfigurationVariable(
        "REDIS_URL", default: "",
        "redis[s]://[[user]:password@]host[:port][/db]: share cached answers between replicas through Redis; unset: each replica alone",
        isSecret: true)
    static let redisTimeout = ConfigurationVariable(
        "REDIS_TIMEOUT_MS", default: "50", "longest a request waits for one Redis command before going on without Redis")
    static let redisConnectTimeout = ConfigurationVariable(
        "REDIS_CONNECT_TIMEOUT_MS", default: "1000", "longest a connection to Redis may take (start-up waits for it once)")
    static let redisCAFile = ConfigurationVariable(
        "REDIS_CA_FILE", default: "", "PEM certificate authorities a rediss:// server is verified against instead of the system's")

    /// The Redis variables, in the order `--help` lists them.
    static let redis: [ConfigurationVariable] = [redisURL, redisTimeout, redisConnectTimeout, redisCAFile]
}
