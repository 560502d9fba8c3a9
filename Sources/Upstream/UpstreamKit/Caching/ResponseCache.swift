import Synchronization

/// The memory that stored answers live in, shared by every upstream of a gateway: bounded in
/// bytes, least recently used answers evicted first, one answer never larger than a set size.
///
/// Each upstream's `CachingTransport` stores under its own partition (its name), so no answer
/// is ever served for another upstream's request; counts are kept per partition for metrics.
public final class ResponseCache: Sendable {
    /// The most the stored answers may occupy together.
    public let maximumBytes: Int
    /// The largest single answer stored; larger ones pass through uncached.
    public let maximumEntryBytes: Int
    private let state: Mutex<State>

    /// - Parameters:
    ///   - maximumBytes: the bound for all stored answers together, bookkeeping included.
    ///   - maximumEntryBytes: the largest answer stored; at most `maximumBytes`.
    public init(maximumBytes: Int, maximumEntryBytes: Int) {
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes, maximumBytes)
        state = Mutex(State())
    }

    /// Where answers for one URL are found: the upstream, and the origin and target asked.
    struct Key: Hashable, Sendable {
        var partition: String
        var origin: Origin
        var target: String

        // Every lookup hashes its key: the target tells URLs apart, and a partition's calls nearly
        // always go to one origin, so the other fields are left to equality.
        func hash(into hasher: inout Hasher) {
            hasher.combine(target)
        }
    }

    /// What is known about a request's answer.
    enum Lookup {
        /// A stored answer whose credentials and varying fields match the request.
        case stored(StoredResponse)
        /// The last answer to such a request could not be stored: send it on alone, uncoalesced.
        case pass
        /// Nothing.
        case none
    }

    /// Counts of one partition, for metrics.
    public struct Usage: Sendable, Equatable {
        /// Memory held, pass markers included.
        public var bytes = 0
        /// Stored answers.
        public var entries = 0
        public var evictions = 0
    }

    func lookup(_ key: Key, credentials: String, request: TransportRequest) -> Lookup {
        state.withLock { state in
            guard let slots = state.slots[key] else { return .none }
            var sawPass = false
            for index in slots where state.nodes[index].credentials == credentials {
                if state.nodes[index].isDerived && state.nodes[index].epoch != state.epoch {
                    state.unlink(index, evicted: false)
                    continue
                }
                guard let stored = state.nodes[index].stored else {
                    sawPass = true
                    continue
                }
                if CachePolicy.matches(stored, request) {
                    state.touch(index)
                    return .stored(stored)
                }
            }
            return sawPass ? .pass : .none
        }
    }

    /// Stores `stored` for requests like `request`, replacing what matched it; false when it is
    /// larger than `maximumEntryBytes` (then nothing is kept for such requests).
    ///
    /// - Parameter derived: whether `stored` was built from other stored answers (a combined
    ///   answer): it is then forgotten at the next invalidation of anything, since it may hold
    ///   what was invalidated.
    @discardableResult
    func store(_ stored: StoredResponse, at key: Key, credentials: String, request: TransportRequest, derived: Bool = false) -> Bool {
        let size = stored.size + key.target.utf8.count + credentials.utf8.count
        return state.withLock { state in
            state.remove(at: key, credentials: credentials, matching: request)
            guard size <= maximumEntryBytes else { return false }
            let node = Node(key: key, credentials: credentials, stored: stored, size: size, isDerived: derived, epoch: state.epoch)
            state.insert(node, maximumBytes: maximumBytes)
            return true
        }
    }

    /// Forgets the answers matching `request` and remembers that its answer could not be stored.
    func markPass(at key: Key, credentials: String, request: TransportRequest) {
        state.withLock { state in
            state.remove(at: key, credentials: credentials, matching: request)
            let size = 128 + key.target.utf8.count + credentials.utf8.count
            state.insert(Node(key: key, credentials: credentials, stored: nil, size: size), maximumBytes: maximumBytes)
        }
    }

    /// Forgets every answer for `key`, whoever asked for it (RFC 9111 §4.4).
    func invalidate(_ key: Key) {
        state.withLock { state in
            state.epoch += 1
            for index in state.slots[key] ?? [] { state.unlink(index, evicted: false) }
        }
    }

    // MARK: Derived answers

    /// The answer stored with `storeDerived` for `target` under `partition`, when it matches
    /// `request` and no invalidation has happened since it was stored.
    public func derivedAnswer(partition: String, target: String, request: TransportRequest) -> StoredResponse? {
        guard case .stored(let stored) = lookup(Self.derivedKey(partition, target), credentials: "", request: request) else { return nil }
        return stored
    }

    /// Stores an answer built from other stored answers, such as a gateway's combined answer, for
    /// requests like `request` to `target`: any later invalidation forgets it, since it may hold
    /// what was invalidated. False when it is too large to store.
    @discardableResult
    public func storeDerived(_ stored: StoredResponse, partition: String, target: String, request: TransportRequest) -> Bool {
        store(stored, at: Self.derivedKey(partition, target), credentials: "", request: request, derived: true)
    }

    /// Derived answers are the gateway's own, on no upstream's origin.
    private static func derivedKey(_ partition: String, _ target: String) -> Key {
        Key(partition: partition, origin: Origin(scheme: "gateway", host: "", port: 0), target: target)
    }

    /// How many answers `partition` has stored, readable without the store's lock: a transport
    /// asks it on every call.
    final class StoredCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The count of `partition`'s stored answers (pass markers aside), kept up to date by the store.
    func storedCount(of partition: String) -> StoredCount {
        state.withLock { $0.storedCount(of: partition) }
    }

    /// The counts of `partition`.
    public func usage(of partition: String) -> Usage {
        state.withLock { state in
            var usage = state.usage[partition] ?? Usage()
            usage.entries = state.storedCounts[partition]?.value.load(ordering: .relaxed) ?? 0
            return usage
        }
    }

    /// What every stored answer occupies together.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// One stored answer, or a pass marker (`stored` nil), in the recency list.
    struct Node {
        var key: Key
        var credentials: String
        var stored: StoredResponse?
        var size: Int
        /// Built from other answers; valid only while `epoch` is the store's.
        var isDerived = false
        var epoch = 0
        var newer = -1
        var older = -1
    }

    /// The nodes in a flat array linked by index (most recent at `newest`), free slots reused.
    struct State {
        var nodes: [Node] = []
        var free: [Int] = []
        var slots: [Key: [Int]] = [:]
        var newest = -1
        var oldest = -1
        var bytes = 0
        var usage: [String: Usage] = [:]
        /// Counts invalidations, which end every derived answer stored before them.
        var epoch = 0
        /// Stored answers by partition: the one count of them, readable without the lock.
        var storedCounts: [String: StoredCount] = [:]

        mutating func storedCount(of partition: String) -> StoredCount {
            if let count = storedCounts[partition] { return count }
            let count = StoredCount()
            storedCounts[partition] = count
            return count
        }

        /// Variants kept per URL: more would let one URL's varying requests crowd out the rest.
        static let maximumVariants = 32

        mutating func insert(_ node: Node, maximumBytes: Int) {
            if let existing = slots[node.key], existing.count >= Self.maximumVariants, let first = existing.first {
                unlink(first, evicted: true)
            }
            let index: Int
            if let reused = free.popLast() {
                nodes[reused] = node
                index = reused
            } else {
                nodes.append(node)
                index = nodes.count - 1
            }
            slots[node.key, default: []].append(index)
            linkAsNewest(index)
            bytes += node.size
            usage[node.key.partition, default: Usage()].bytes += node.size
            if node.stored != nil { storedCount(of: node.key.partition).value.add(1, ordering: .relaxed) }
            while bytes > maximumBytes, oldest != -1, oldest != index {
                unlink(oldest, evicted: true)
            }
        }

        mutating func remove(at key: Key, credentials: String, matching request: TransportRequest) {
            for index in slots[key] ?? [] where nodes[index].credentials == credentials {
                if let stored = nodes[index].stored, !CachePolicy.matches(stored, request) { continue }
                unlink(index, evicted: false)
            }
        }

        mutating func touch(_ index: Int) {
            guard newest != index else { return }
            detach(index)
            linkAsNewest(index)
        }

        mutating func unlink(_ index: Int, evicted: Bool) {
            let node = nodes[index]
            detach(index)
            if var indices = slots[node.key] {
                indices.removeAll { $0 == index }
                slots[node.key] = indices.isEmpty ? nil : indices
            }
            bytes -= node.size
            usage[node.key.partition, default: Usage()].bytes -= node.size
            if node.stored != nil { storedCounts[node.key.partition]?.value.subtract(1, ordering: .relaxed) }
            if evicted && node.stored != nil { usage[node.key.partition, default: Usage()].evictions += 1 }
            nodes[index].stored = nil
            nodes[index].credentials = ""
            free.append(index)
        }

        private mutating func linkAsNewest(_ index: Int) {
            nodes[index].older = newest
            nodes[index].newer = -1
            if newest != -1 { nodes[newest].newer = index }
            newest = index
            if oldest == -1 { oldest = index }
        }

        private mutating func detach(_ index: Int) {
            let (newer, older) = (nodes[index].newer, nodes[index].older)
            if newer != -1 { nodes[newer].older = older } else { newest = older }
            if older != -1 { nodes[older].newer = newer } else { oldest = newer }
            nodes[index].newer = -1
            nodes[index].older = -1
        }
    }
}
