/// How the shared cache treats the answers of one upstream, or of one request.
///
/// The upstream's `Cache-Control`, `Expires` and validators decide by default (RFC 9111); these
/// settings only switch caching off, or fill in what an upstream never says.
public struct CacheSettings: Sendable, Equatable {
    /// Whether answers are stored, reused and coalesced at all.
    public var isEnabled: Bool
    /// The freshness of an answer that carries none of its own (no `max-age`, `s-maxage` or
    /// `Expires`), instead of a heuristic; nil stores such an answer only to revalidate it.
    public var defaultFreshness: Duration? {
        get { Self.duration(defaultFreshnessMilliseconds) }
        set { defaultFreshnessMilliseconds = Self.milliseconds(newValue) }
    }
    /// How long past its freshness an answer may be served while one background request refreshes
    /// it, when the upstream sends no `stale-while-revalidate` of its own.
    public var staleWhileRevalidate: Duration? {
        get { Self.duration(staleWhileRevalidateMilliseconds) }
        set { staleWhileRevalidateMilliseconds = Self.milliseconds(newValue) }
    }
    /// How long past its freshness an answer may be served when the upstream fails (5xx, timeout,
    /// no connection, open circuit), when the upstream sends no `stale-if-error` of its own.
    public var staleIfError: Duration? {
        get { Self.duration(staleIfErrorMilliseconds) }
        set { staleIfErrorMilliseconds = Self.milliseconds(newValue) }
    }
    /// Whether the gateway's own credentials for this upstream (its bearer token, OAuth2 token or
    /// cookie jar, the same for every client) leave answers shareable. When false, a request that
    /// carries them counts as authorized (RFC 9111 §3.5): its answer is stored only when marked
    /// `public`, `s-maxage` or `must-revalidate`.
    public var sharesGatewayCredentials: Bool

    // Kept as milliseconds, -1 for none: every request carries its settings through each layer
    // of the upstream stack, and three `Duration?` would more than double their size.
    private var defaultFreshnessMilliseconds: Int64 = -1
    private var staleWhileRevalidateMilliseconds: Int64 = -1
    private var staleIfErrorMilliseconds: Int64 = -1

    /// Whether the settings give any answer freshness or a stale window of their own.
    var grantsFreshness: Bool {
        defaultFreshnessMilliseconds >= 0 || staleWhileRevalidateMilliseconds >= 0 || staleIfErrorMilliseconds >= 0
    }

    private static func duration(_ milliseconds: Int64) -> Duration? {
        milliseconds < 0 ? nil : .milliseconds(milliseconds)
    }

    private static func milliseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return -1 }
        let parts = duration.components
        return max(0, parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
    }

    public init(
        isEnabled: Bool = true,
        defaultFreshness: Duration? = nil,
        staleWhileRevalidate: Duration? = nil,
        staleIfError: Duration? = nil,
        sharesGatewayCredentials: Bool = true
    ) {
        self.isEnabled = isEnabled
        self.sharesGatewayCredentials = sharesGatewayCredentials
        self.defaultFreshness = defaultFreshness
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }

    /// The upstream's headers decide; nothing is granted.
    public static let standard = CacheSettings()

    /// Nothing is stored, reused or coalesced: for stateful calls (a shuffle, a draw, a counter).
    public static let off = CacheSettings(isEnabled: false)
}
