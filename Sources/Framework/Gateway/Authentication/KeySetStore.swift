import CallerIdentity
import HTTPBasics
import Synchronization
import UpstreamKit

/// The key set tokens are verified with: one read from a file, or one fetched from a URL and
/// refreshed as `KeySetRefresh` says. One fetch is in flight at a time; requests that need its
/// result wait for it, others use the set in hand. A failed fetch keeps the old set and logs a
/// warning.
final class KeySetStore: Sendable {
    /// Fetches the set and the `max-age` of its answer.
    typealias Fetch = @Sendable () async throws(KeySetFetchError) -> (keys: JSONWebKeySet, maxAge: Int?)

    private struct State {
        var keys: JSONWebKeySet?
        var refresh: KeySetRefresh
        var fetch: Task<JSONWebKeySet?, Never>?
    }

    private let state: Mutex<State>
    private let fetch: Fetch?
    private let warn: @Sendable (String) -> Void
    /// Called with each new set, after the first: tokens verified with the old one are forgotten.
    private let replaced: @Sendable () -> Void

    /// A set read once.
    init(keys: JSONWebKeySet) {
        state = Mutex(State(keys: keys, refresh: KeySetRefresh(defaultLifetime: .zero, minimumInterval: .zero)))
        fetch = nil
        warn = { _ in }
        replaced = {}
    }

    /// A set fetched with `fetch`, first now.
    init(fetch: @escaping Fetch, refresh: KeySetRefresh, warn: @escaping @Sendable (String) -> Void, replaced: @escaping @Sendable () -> Void) {
        state = Mutex(State(keys: nil, refresh: refresh))
        self.fetch = fetch
        self.warn = warn
        self.replaced = replaced
        _ = startFetch()
    }

    /// The set to verify with: the one in hand (starting a refresh when it is due), or, before the
    /// first fetch succeeded, that fetch's result; nil when there is none.
    func current() async -> JSONWebKeySet? {
        guard fetch != nil else { return state.withLock { $0.keys } }
        let now = ContinuousClock.now
        let (keys, pending) = state.withLock { state -> (JSONWebKeySet?, Task<JSONWebKeySet?, Never>?) in
            let pending = state.refresh.isDue(at: now) ? startFetch(&state) : state.fetch
            return (state.keys, pending)
        }
        if let keys { return keys }
        return await pending?.value
    }

    /// A fresher set for a token whose `kid` the set in hand lacks, when one may be fetched now (or
    /// is being fetched); nil otherwise.
    func refreshed(forUnknownKeyAt now: ContinuousClock.Instant = .now) async -> JSONWebKeySet? {
        guard fetch != nil else { return nil }
        let pending = state.withLock { state -> Task<JSONWebKeySet?, Never>? in
            if let fetch = state.fetch { return fetch }
            return state.refresh.mayFetchForUnknownKey(at: now) ? startFetch(&state) : nil
        }
        return await pending?.value
    }

    private func startFetch() -> Task<JSONWebKeySet?, Never>? {
        state.withLock { startFetch(&$0) }
    }

    private func startFetch(_ state: inout State) -> Task<JSONWebKeySet?, Never>? {
        if let running = state.fetch { return running }
        guard let fetch else { return nil }
        let task = Task { [self] () -> JSONWebKeySet? in
            let result: Result<(keys: JSONWebKeySet, maxAge: Int?), KeySetFetchError>
            do throws(KeySetFetchError) {
                result = .success(try await fetch())
            } catch {
                result = .failure(error)
            }
            let now = ContinuousClock.now
            let (keys, hadKeys) = self.state.withLock { state -> (JSONWebKeySet?, Bool) in
                state.fetch = nil
                let hadKeys = state.keys != nil
                switch result {
                case .success(let fetched):
                    state.keys = fetched.keys
                    state.refresh.fetched(at: now, maxAge: fetched.maxAge)
                case .failure:
                    state.refresh.failed(at: now)
                }
                return (state.keys, hadKeys)
            }
            switch result {
            case .success: if hadKeys { replaced() }
            case .failure(let error):
                warn("authentication: the key set could not be fetched (\(error)); \(hadKeys ? "the previous keys stay in use" : "tokens cannot be checked until it can")")
            }
            return keys
        }
        state.fetch = task
        return task
    }
}
