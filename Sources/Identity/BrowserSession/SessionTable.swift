/// The sessions of one replica: each with an idle and an absolute lifetime, and at most `capacity` of them.
///
/// A value type with the clock as an argument, so its policy is tested without waiting. When full, a new
/// session takes the place of the one used least recently: a flood of sign-ins costs the oldest idle
/// sessions, never memory beyond the bound.
public struct SessionTable<Session: Sendable>: Sendable {
    /// How long sessions live.
    public struct Lifetimes: Sendable, Equatable {
        /// Seconds without a request after which a session ends.
        public var idle: Double
        /// Seconds after sign-in after which a session ends however busy it is.
        public var absolute: Double

        /// Lifetimes of `idle` and `absolute` seconds.
        public init(idle: Double, absolute: Double) {
            self.idle = idle
            self.absolute = absolute
        }
    }

    private struct Entry: Sendable {
        var session: Session
        let createdAt: Double
        var lastSeen: Double
    }

    /// The lifetimes every session gets.
    public let lifetimes: Lifetimes
    /// The most sessions kept at once.
    public let capacity: Int
    private var entries: [String: Entry] = [:]

    /// An empty table.
    public init(lifetimes: Lifetimes, capacity: Int) {
        self.lifetimes = lifetimes
        self.capacity = max(1, capacity)
    }

    /// How many sessions are kept, ended ones not yet swept included.
    public var count: Int { entries.count }

    /// Keeps `session` under `id` from `now`; when full, first drops ended sessions, then the least recently used.
    public mutating func insert(_ session: Session, id: String, now: Double) {
        if entries[id] == nil, entries.count >= capacity {
            sweep(now: now)
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
                entries[oldest] = nil
            }
        }
        entries[id] = Entry(session: session, createdAt: now, lastSeen: now)
    }

    /// The live session under `id` at `now`, which counts as a use; an ended one is removed and nil returned.
    public mutating func use(_ id: String, now: Double) -> Session? {
        guard let entry = entries[id] else { return nil }
        guard isAlive(entry, now: now) else {
            entries[id] = nil
            return nil
        }
        entries[id]?.lastSeen = now
        return entry.session
    }

    /// Replaces the session under `id` (after a refresh) without changing its lifetimes; false when there is none.
    @discardableResult
    public mutating func update(_ id: String, to session: Session) -> Bool {
        guard entries[id] != nil else { return false }
        entries[id]?.session = session
        return true
    }

    /// Ends the session under `id` (logout); the session it held, if any.
    @discardableResult
    public mutating func remove(_ id: String) -> Session? {
        entries.removeValue(forKey: id)?.session
    }

    /// Ends every session for which `matches` holds (back-channel logout by `sub` or `sid`); how many ended.
    @discardableResult
    public mutating func removeAll(where matches: (Session) -> Bool) -> Int {
        let before = entries.count
        entries = entries.filter { !matches($0.value.session) }
        return before - entries.count
    }

    /// Drops every session that has ended by `now`.
    public mutating func sweep(now: Double) {
        entries = entries.filter { isAlive($0.value, now: now) }
    }

    private func isAlive(_ entry: Entry, now: Double) -> Bool {
        now - entry.lastSeen < lifetimes.idle && now - entry.createdAt < lifetimes.absolute
    }
}
