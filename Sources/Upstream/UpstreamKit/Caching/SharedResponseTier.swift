/// A second cache tier behind the in-memory `ResponseCache` that every replica of a gateway
/// reads and writes, such as Redis: a replica's local miss asks it before the upstream, and what a
/// replica stores it also hands to it.
///
/// `CachingTransport` decides what is stored, for how long and under which key, and encodes and
/// decodes the answers (`StoredResponseCoding`); the tier only keeps bytes. Keys hold everything
/// the local key does, the caller's credentials included, so an implementation must not use
/// them as they are where others can read them: `SharedResponseTier` implementations hash them.
/// Neither method may make a caller wait longer than the tier's own short timeout, and failure
/// is a miss: the local tiers go on without it.
public protocol SharedResponseTier: Sendable {
    /// The bytes saved under `key`, or nil when there are none or the tier cannot answer in time.
    func load(_ key: String) async -> [UInt8]?

    /// Saves `bytes` under `key` for `lifetime`, without making the caller wait for the tier.
    func save(_ bytes: [UInt8], under key: String, lifetime: Duration)

    /// Hears that the entry `load` returned for `key` is of this gateway's layout but was refused
    /// (`StoredResponseCoding.decode`: cut short, or an answer no cache stores): something other
    /// than a replica wrote it. It was a miss; the tier counts and reports it.
    func refused(_ key: String, reason: String)

    /// A cryptographic digest of `bytes` (SHA-256, say): entries hold it in place of the values of
    /// the request fields an answer varies on, which may be credentials (`StoredResponseCoding`).
    func digest(_ bytes: [UInt8]) -> [UInt8]
}

extension SharedResponseTier {
    /// By default a refused entry is only a miss.
    public func refused(_ key: String, reason: String) {}
}
