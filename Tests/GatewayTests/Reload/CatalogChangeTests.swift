import Testing

@testable import Gateway

/// What a reload keeps and replaces, as pure functions of two configurations.
@Suite("Catalog change")
struct CatalogChangeTests {
    static let live = UpstreamDefinition(name: "live", defaultBaseURL: "http://127.0.0.1:1/live")
    static let other = UpstreamDefinition(name: "other", defaultBaseURL: "http://127.0.0.1:1/other")

    @Test("an upstream defined alike is kept, one whose URL or timeout changed is replaced; routes are added and removed by method and path")
    func keptReplacedAddedRemoved() {
        let moved = UpstreamDefinition(name: "live", defaultBaseURL: "http://127.0.0.1:2/live")
        let slower = UpstreamDefinition(name: "other", defaultBaseURL: Self.other.defaultBaseURL, defaultTimeout: .seconds(9))
        let added = UpstreamDefinition(name: "added", defaultBaseURL: "http://127.0.0.1:1/added")
        let old = GatewayCatalog(upstreams: [Self.live, Self.other], endpoints: [], proxies: [ProxyRoute("/a", upstream: Self.live)])
        #expect(CatalogChange(from: old, to: old) == CatalogChange(keptUpstreams: ["live", "other"]))

        let new = GatewayCatalog(
            upstreams: [Self.live, added], endpoints: [], proxies: [ProxyRoute("/a", upstream: Self.live), ProxyRoute("/b", upstream: added)])
        #expect(CatalogChange(from: old, to: new) == CatalogChange(
            addedRoutes: ["proxy /b"], keptUpstreams: ["live"], addedUpstreams: ["added"], removedUpstreams: ["other"]))

        let changed = GatewayCatalog(upstreams: [moved, slower], endpoints: [], proxies: [])
        #expect(CatalogChange(from: old, to: changed) == CatalogChange(removedRoutes: ["proxy /a"], replacedUpstreams: ["live", "other"]))
    }

    @Test("the log line names what changed, and says so when nothing was added or removed")
    func summary() {
        let change = CatalogChange(addedRoutes: ["GET /v2/menu", "proxy /b"], keptUpstreams: ["live"], replacedUpstreams: ["other"])
        #expect(change.summary == "routes added: GET /v2/menu, proxy /b; upstreams kept: live; upstreams replaced: other")
        #expect(CatalogChange().summary == "no route or upstream added or removed")
    }

    @Test("a reload keeps the limiter (callers and counts) of a route whose limit is the same; a new one never takes a kept one's number")
    func rateLimitersCarriedOver() throws {
        var first = RateLimits(configuration: try RateLimitConfiguration.read(EnvironmentReader(environment: ["RATE_LIMIT": "10/s"])))
        let a = try #require(Self.limiter(&first, .default, "/a/*"))
        let b = try #require(Self.limiter(&first, .default, "/b/*"))
        #expect(Self.limiter(&first, .off, "/free/*") == nil)

        var second = RateLimits(reloading: first)
        let keptB = try #require(Self.limiter(&second, .default, "/b/*"))
        let changedA = try #require(Self.limiter(&second, .limit(RateLimitPolicy(1, per: .minute)), "/a/*"))
        let added = try #require(Self.limiter(&second, .default, "/c/*"))
        second.dropPrevious()
        #expect(keptB === b)
        #expect(changedA !== a)
        #expect(second.store as AnyObject === first.store as AnyObject)
        #expect(second.limiters.map(\.route) == ["/b/*", "/a/*", "/c/*"])
        #expect(keptB.index == b.index)
        #expect(![a.index, b.index].contains(changedA.index) && ![a.index, b.index].contains(added.index))
        #expect(changedA.index != added.index)
    }

    /// `limits`' limiter for a route (outside `#require`, which cannot mutate).
    static func limiter(_ limits: inout RateLimits, _ setting: RateLimit, _ route: String) -> RouteRateLimiter? {
        limits.limiter(for: setting, route: route)
    }
}
