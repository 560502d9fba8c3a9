import CallerIdentity
import Synchronization

/// Tokens verified lately and the identity each proved, so that a client sending the same token
/// on every request pays for its signature once.
///
/// Keyed by the whole token, so only the very bytes verified match; an entry is used only until
/// the token's `exp` plus the leeway, as verifying again would allow. Bounded: when full it is
/// emptied, which costs the next requests one verification each. Emptied too when the key set
/// changes, since a key dropped from the set must stop vouching for its tokens.
final class VerifiedTokens: Sendable {
    private struct Entry {
        let identity: Identity
        /// Seconds since 1970 after which the token is no longer accepted.
        let acceptedUntil: Double
    }

    /// A token as the table's key: equal only to the very same bytes, hashed by its last bytes.
    ///
    /// Those are the signature's, which differ between any two tokens an issuer signs, so hashing
    /// a kilobyte token costs what hashing 32 bytes does. Only verified tokens are stored, so no one
    /// without the issuer's key can plant entries that collide on purpose.
    private struct Key: Hashable {
        let token: String

        func hash(into hasher: inout Hasher) {
            token.utf8.suffix(32).withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                ?? hasher.combine(token)
        }
    }

    private let entries = Mutex<[Key: Entry]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The identity `token` proved, if it was verified and is still accepted at `now`.
    func identity(of token: Substring, at now: Double) -> Identity? {
        let key = Key(token: String(token))
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now < entry.acceptedUntil else {
                entries[key] = nil
                return nil
            }
            return entry.identity
        }
    }

    func keep(_ identity: Identity, for token: Substring, acceptedUntil: Double) {
        let key = Key(token: String(token))
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(identity: identity, acceptedUntil: acceptedUntil)
        }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
