import RedisClient
import UpstreamKit

/// The shared cache tier in Redis: each entry under `gateway:cache:2:` and the SHA-256 of the
/// cache's key, so that the credentials in the key never appear in Redis's key space; entries
/// larger than `maximumEntryBytes` are not saved.
///
/// Here, not in `Upstream`, so that `Upstream` (which apps use with URLSession alone) knows only
/// the `SharedResponseTier` seam, and `RedisClient` knows nothing of HTTP caching.
struct RedisResponseTier: SharedResponseTier {
    let sharing: RedisSharing
    let maximumEntryBytes: Int

    /// What every key name starts with; the number changes with `StoredResponseCoding`'s layout.
    static let prefix = "gateway:cache:2:"

    func load(_ key: String) async -> [UInt8]? {
        guard sharing.allowsCache else { return nil }
        // A failure is a miss; the client counts it and reports Redis's health.
        return try? await sharing.client.get(Self.name(of: key))
    }

    func save(_ bytes: [UInt8], under key: String, lifetime: Duration) {
        guard bytes.count <= maximumEntryBytes, sharing.client.isUp, sharing.allowsCache else { return }
        let sharing = self.sharing
        Task { try? await sharing.client.set(Self.name(of: key), to: bytes, expiry: lifetime) }
    }

    func refused(_ key: String, reason: String) {
        sharing.refusedEntry(reason: reason)
    }

    func digest(_ bytes: [UInt8]) -> [UInt8] {
        HexDigest.sha256Bytes(bytes)
    }

    static func name(of key: String) -> String {
        prefix + HexDigest.sha256(Array(key.utf8))
    }
}
