import HTTPBasics
import Testing
@testable import UpstreamKit

/// The cache's rules as pure functions: heads and a time in, a decision out.
@Suite struct CachePolicyTests {
    static let origin = Origin(scheme: "http", host: "api.example", port: 80)
    /// A fixed "now": 2026-11-25T12:00:00Z.
    static let now = 1_795_608_000.0

    static func request(_ target: String = "/items/1", method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> TransportRequest {
        TransportRequest(method: method, origin: origin, target: target, headers: headers, cache: .standard)
    }

    static func response(_ headers: HTTPHeaders, status: Int = 200, body: String = "{}") -> Response {
        Response(status: HTTPStatus(code: status), headers: headers, body: Array(body.utf8))
    }

    static func date(_ seconds: Double) -> String {
        String(decoding: HTTPDate.format(secondsSince1970: Int(seconds)), as: UTF8.self)
    }

    /// An answer stored `age` seconds before `now`, sent at once.
    static func stored(_ headers: HTTPHeaders, status: Int = 200, age: Double = 0, request: TransportRequest = request()) -> StoredResponse {
        CachePolicy.stored(response(headers, status: status), to: request, requestTime: now - age, responseTime: now - age)
    }

    // MARK: Cache-Control

    @Test func directivesAreReadFromEveryLineInAnyCaseAndQuotedValuesAreUnquoted() {
        let directives = CacheControl(["Cache-Control": "Public, MAX-AGE=\"60\"", "cache-control": "stale-while-revalidate=30, no-cache=\"Set-Cookie, X\""])
        #expect(directives.isPublic)
        #expect(directives.maxAge == 60)
        #expect(directives.staleWhileRevalidate == 30)
        #expect(directives.noCache)
    }

    @Test(arguments: [
        ("max-age=60, max-age=3600", 60), ("max-age=-1", 0), ("max-age=abc", 0), ("max-age=1.5", 0), ("max-age=", 0),
        ("max-age=00042", 42), ("max-age=99999999999999999999", 1 << 31),
    ])
    func deltaSecondsKeepTheFirstValueAndReadInvalidOnesAsStale(value: String, expected: Int) {
        #expect(CacheControl(["Cache-Control": value]).maxAge == expected)
    }

    @Test func maxStaleWithoutAValueAcceptsAnyStaleness() {
        #expect(CacheControl(["Cache-Control": "max-stale"]).maxStale == Int.max)
        #expect(CacheControl(["Cache-Control": "max-stale=5"]).maxStale == 5)
    }

    // MARK: Storing

    @Test func storesAnswersWithExplicitFreshness() {
        for headers: HTTPHeaders in [["Cache-Control": "max-age=60"], ["Cache-Control": "s-maxage=60"], ["Expires": Self.date(Self.now + 60)]] {
            #expect(CachePolicy.mayStore(Self.response(headers), to: Self.request(), authorized: false, settings: .standard))
        }
    }

    @Test func refusesWhatASharedCacheMustNotStore() {
        let refused: [(HTTPHeaders, Int, TransportRequest)] = [
            (["Cache-Control": "max-age=60, no-store"], 200, Self.request()),
            (["Cache-Control": "max-age=60, private"], 200, Self.request()),
            (["Cache-Control": "private=\"X\", max-age=60"], 200, Self.request()),
            (["Cache-Control": "max-age=60"], 200, Self.request(headers: ["Cache-Control": "no-store"])),
            (["Cache-Control": "max-age=60", "Vary": "Accept, *"], 200, Self.request()),
            (["Cache-Control": "max-age=60", "Set-Cookie": "session=1"], 200, Self.request()),
            (["Cache-Control": "max-age=60"], 206, Self.request()),
            (["Cache-Control": "max-age=60"], 304, Self.request()),
            (["Cache-Control": "max-age=60, must-understand"], 299, Self.request()),
            (["Cache-Control": "max-age=60"], 201, Self.request(method: .post)),
            // Nothing to reuse it with: no freshness, no validator, no stale window granted.
            ([:], 200, Self.request()),
            (["Cache-Control": "max-age=60"], 200, Self.request(method: .head)),
        ]
        for (headers, status, request) in refused {
            #expect(!CachePolicy.mayStore(Self.response(headers, status: status), to: request, authorized: false, settings: .standard))
        }
        #expect(!CachePolicy.mayStore(Self.response(["Cache-Control": "max-age=60"]), to: Self.request(), authorized: false, settings: .off))
    }

    @Test func storesAnAnswerWithoutFreshnessWhenItCanBeRevalidatedOrStandInForAnError() {
        let plain = Self.response([:])
        #expect(CachePolicy.mayStore(Self.response(["ETag": "\"v1\""]), to: Self.request(), authorized: false, settings: .standard))
        #expect(CachePolicy.mayStore(plain, to: Self.request(), authorized: false, settings: CacheSettings(defaultFreshness: .seconds(30))))
        #expect(CachePolicy.mayStore(plain, to: Self.request(), authorized: false, settings: CacheSettings(staleIfError: .seconds(30))))
        #expect(!CachePolicy.mayStore(Self.response([:], status: 500), to: Self.request(), authorized: false, settings: CacheSettings(defaultFreshness: .seconds(30))))
    }

    @Test func anAuthorizedRequestsAnswerIsStoredOnlyWhenMarkedShareable() {
        let authorized = Self.request(headers: ["Authorization": "Bearer client"])
        #expect(!CachePolicy.mayStore(Self.response(["Cache-Control": "max-age=60"]), to: authorized, authorized: true, settings: .standard))
        for marked in ["max-age=60, public", "s-maxage=60", "max-age=60, must-revalidate"] {
            #expect(CachePolicy.mayStore(Self.response(["Cache-Control": marked]), to: authorized, authorized: true, settings: .standard))
        }
    }

    @Test func storingDropsHopByHopFieldsAndKeepsTheVaryingValues() {
        let request = Self.request(headers: ["Accept-Language": "en", "Accept": "a/b", "accept": "c/d"])
        let stored = CachePolicy.stored(
            Self.response(["Cache-Control": "max-age=60", "Connection": "close, X-Hop", "X-Hop": "1", "Keep-Alive": "5", "Vary": "Accept, Accept-Language"]),
            to: request, requestTime: Self.now, responseTime: Self.now)
        #expect(stored.response.headers.map(\.name) == ["Cache-Control", "Vary"])
        #expect(stored.varying == [.init(name: "accept", value: "a/b, c/d"), .init(name: "accept-language", value: "en")])
        #expect(CachePolicy.matches(stored, request))
        #expect(!CachePolicy.matches(stored, Self.request(headers: ["Accept-Language": "en", "Accept": "a/b"])))
        #expect(!CachePolicy.matches(stored, Self.request(headers: ["Accept": "a/b, c/d"])))
    }

    // MARK: Age and freshness

    @Test func freshnessComesFromSharedMaxAgeThenMaxAgeThenExpires() {
        #expect(CachePolicy.freshnessLifetime(of: Self.stored(["Cache-Control": "max-age=60, s-maxage=10"]), settings: .standard) == 10)
        #expect(CachePolicy.freshnessLifetime(of: Self.stored(["Cache-Control": "max-age=60", "Expires": Self.date(Self.now + 600)]), settings: .standard) == 60)
        let expires = Self.stored(["Date": Self.date(Self.now - 100), "Expires": Self.date(Self.now + 200)])
        #expect(CachePolicy.freshnessLifetime(of: expires, settings: .standard) == 300)
        #expect(CachePolicy.freshnessLifetime(of: Self.stored(["Expires": "0"]), settings: .standard) == 0)
        // A date in another shape than HTTP's three, or two Expires lines, means already expired.
        let future = Self.date(Self.now + 600)
        for invalid: HTTPHeaders in [["Expires": String(future.dropLast(3)) + "UTC"], ["Expires": future, "expires": future]] {
            #expect(CachePolicy.freshnessLifetime(of: Self.stored(invalid), settings: .standard) == 0)
        }
        #expect(CachePolicy.freshnessLifetime(of: Self.stored([:]), settings: .standard) == 0)
        #expect(CachePolicy.freshnessLifetime(of: Self.stored([:]), settings: CacheSettings(defaultFreshness: .seconds(90))) == 90)
        #expect(CachePolicy.freshnessLifetime(of: Self.stored(["Cache-Control": "max-age=5"]), settings: CacheSettings(defaultFreshness: .seconds(90))) == 5)
    }

    @Test func ageAddsTheUpstreamsAgeTheDelayOnTheWayAndTheTimeHeld() {
        // Sent at now-12, answered at now-10 with Age 30: 30 + 2 on the way, then 10 held.
        var stored = StoredResponse(
            response: Self.response(["Age": "30", "Date": Self.date(Self.now - 10)]), requestTime: Self.now - 12, responseTime: Self.now - 10)
        #expect(CachePolicy.currentAge(of: stored, now: Self.now) == 42)
        // A Date further in the past than Age says wins: the answer was generated 100 s before it arrived.
        stored.response.headers = ["Age": "30", "Date": Self.date(Self.now - 110)]
        #expect(CachePolicy.currentAge(of: stored, now: Self.now) == 110)
        // An Age that is not delta-seconds is ignored; of `0, old` the first value counts.
        for ignored in ["soon", "-5", "1.5", "0, old"] {
            stored.response.headers = ["Age": ignored, "Date": Self.date(Self.now - 10)]
            #expect(CachePolicy.currentAge(of: stored, now: Self.now) == 12)
        }
    }

    @Test func servedAnswersCarryTheirCurrentAge() {
        let served = CachePolicy.served(Self.stored(["Cache-Control": "max-age=60", "Age": "5"], age: 10), now: Self.now)
        #expect(served.headers["Age"] == "15")
    }

    // MARK: Reusing

    @Test func aFreshAnswerIsReusedWithTheFreshnessItHasLeft() {
        #expect(CachePolicy.reuse(of: Self.stored(["Cache-Control": "max-age=60"], age: 20), for: Self.request(), settings: .standard, now: Self.now)
            == .fresh(remaining: 40))
        #expect(CachePolicy.reuse(of: Self.stored(["Cache-Control": "max-age=60"], age: 60), for: Self.request(), settings: .standard, now: Self.now)
            == .revalidate)
    }

    @Test func requestDirectivesNarrowOrWidenReuse() {
        let stored = Self.stored(["Cache-Control": "max-age=60"], age: 20)
        func reuse(_ value: String) -> CachePolicy.Reuse {
            CachePolicy.reuse(of: stored, for: Self.request(headers: ["Cache-Control": value]), settings: .standard, now: Self.now)
        }
        #expect(reuse("no-cache") == .revalidate)
        #expect(reuse("max-age=0") == .revalidate)
        #expect(reuse("max-age=30") == .fresh(remaining: 40))
        #expect(reuse("min-fresh=50") == .revalidate)
        let stale = Self.stored(["Cache-Control": "max-age=60"], age: 70)
        #expect(CachePolicy.reuse(of: stale, for: Self.request(headers: ["Cache-Control": "max-stale=15"]), settings: .standard, now: Self.now)
            == .fresh(remaining: -10))
        #expect(CachePolicy.reuse(of: stale, for: Self.request(headers: ["Cache-Control": "max-stale=5"]), settings: .standard, now: Self.now)
            == .revalidate)
    }

    @Test func noCacheAnswersAreAlwaysRevalidated() {
        let stored = Self.stored(["Cache-Control": "max-age=60, no-cache", "ETag": "\"a\""])
        #expect(CachePolicy.reuse(of: stored, for: Self.request(), settings: .standard, now: Self.now) == .revalidate)
    }

    @Test func staleWhileRevalidateServesWithinItsWindowUnlessRevalidationIsRequired() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60, stale-while-revalidate=30"]
        #expect(CachePolicy.reuse(of: Self.stored(headers, age: 80), for: Self.request(), settings: .standard, now: Self.now) == .staleWhileRevalidate)
        #expect(CachePolicy.reuse(of: Self.stored(headers, age: 95), for: Self.request(), settings: .standard, now: Self.now) == .revalidate)
        let granted = CacheSettings(staleWhileRevalidate: .seconds(100))
        #expect(CachePolicy.reuse(of: Self.stored(["Cache-Control": "max-age=60"], age: 150), for: Self.request(), settings: granted, now: Self.now)
            == .staleWhileRevalidate)
        // The upstream's own window wins over the operator's.
        #expect(CachePolicy.reuse(of: Self.stored(headers, age: 150), for: Self.request(), settings: granted, now: Self.now) == .revalidate)
        for strict in ["max-age=60, stale-while-revalidate=30, must-revalidate", "s-maxage=60, stale-while-revalidate=30",
                       "max-age=60, stale-while-revalidate=30, proxy-revalidate"] {
            #expect(CachePolicy.reuse(of: Self.stored(["Cache-Control": strict], age: 80), for: Self.request(), settings: .standard, now: Self.now)
                == .revalidate)
        }
    }

    @Test func staleIfErrorStandsInWithinItsWindowOnly() {
        let stored = Self.stored(["Cache-Control": "max-age=60, stale-if-error=100"], age: 120)
        #expect(CachePolicy.mayServeOnError(stored, for: Self.request(), settings: .standard, now: Self.now))
        #expect(!CachePolicy.mayServeOnError(stored, for: Self.request(), settings: .standard, now: Self.now + 50))
        let plain = Self.stored(["Cache-Control": "max-age=60"], age: 120)
        #expect(!CachePolicy.mayServeOnError(plain, for: Self.request(), settings: .standard, now: Self.now))
        #expect(CachePolicy.mayServeOnError(plain, for: Self.request(), settings: CacheSettings(staleIfError: .seconds(61)), now: Self.now))
        #expect(CachePolicy.mayServeOnError(plain, for: Self.request(headers: ["Cache-Control": "stale-if-error=100"]), settings: .standard, now: Self.now))
        let strict = Self.stored(["Cache-Control": "max-age=60, stale-if-error=100, must-revalidate"], age: 120)
        #expect(!CachePolicy.mayServeOnError(strict, for: Self.request(), settings: CacheSettings(staleIfError: .seconds(600)), now: Self.now))
    }

    // MARK: Validating

    @Test func revalidationAsksWithTheStoredValidatorsInsteadOfTheCallersOwn() {
        let stored = Self.stored(["ETag": "\"v1\"", "Last-Modified": Self.date(Self.now - 3600)])
        let validating = CachePolicy.validating(Self.request(headers: ["If-None-Match": "\"mine\"", "Accept": "a/b"]), against: stored)
        #expect(validating.headers.values(named: "If-None-Match") == ["\"v1\""])
        #expect(validating.headers["If-Modified-Since"] == Self.date(Self.now - 3600))
        #expect(validating.headers["Accept"] == "a/b")
    }

    @Test func a304RefreshesTheStoredFieldsButNeverTheBodyOrItsFraming() throws {
        let stored = Self.stored(["ETag": "\"v1\"", "Cache-Control": "max-age=10", "Content-Length": "2", "X-Old": "1"], age: 100)
        let notModified = Self.response(
            ["ETag": "W/\"v1\"", "Cache-Control": "max-age=60", "Content-Length": "0", "X-New": "2", "Connection": "close"], status: 304, body: "")
        let refreshed = try #require(CachePolicy.refreshed(stored, by: notModified, requestTime: Self.now - 1, responseTime: Self.now))
        #expect(refreshed.response.body == Array("{}".utf8))
        #expect(refreshed.response.headers["Cache-Control"] == "max-age=60")
        #expect(refreshed.response.headers["Content-Length"] == "2")
        #expect(refreshed.response.headers["X-Old"] == "1")
        #expect(refreshed.response.headers["X-New"] == "2")
        #expect(refreshed.response.headers["Connection"] == nil)
        #expect(CachePolicy.reuse(of: refreshed, for: Self.request(), settings: .standard, now: Self.now) == .fresh(remaining: 59))
        #expect(CachePolicy.refreshed(stored, by: Self.response(["ETag": "\"v2\""], status: 304), requestTime: Self.now, responseTime: Self.now) == nil)
    }

    @Test func theCallersOwnConditionsAreAnsweredFromTheStoredAnswer() {
        let stored = Self.stored(["ETag": "\"v1\"", "Last-Modified": Self.date(Self.now - 3600), "Cache-Control": "max-age=60", "X-Other": "1"])
        #expect(CachePolicy.satisfiesConditions(of: Self.request(headers: ["If-None-Match": "\"v0\", W/\"v1\""]), stored))
        #expect(!CachePolicy.satisfiesConditions(of: Self.request(headers: ["If-None-Match": "\"v2\""]), stored))
        #expect(CachePolicy.satisfiesConditions(of: Self.request(headers: ["If-Modified-Since": Self.date(Self.now - 60)]), stored))
        #expect(!CachePolicy.satisfiesConditions(of: Self.request(headers: ["If-Modified-Since": Self.date(Self.now - 7200)]), stored))
        let notModified = CachePolicy.notModified(for: stored, now: Self.now)
        #expect(notModified.status.code == 304 && notModified.body.isEmpty)
        #expect(notModified.headers["ETag"] == "\"v1\"" && notModified.headers["X-Other"] == nil && notModified.headers["Age"] == "0")
    }

    // MARK: Invalidating

    @Test func unsafeRequestsThatSucceedInvalidateTheirURLAndTheSameOriginURLsTheyName() {
        let post = Self.request("/items/1?x=1", method: .post)
        let created = Self.response(["Location": "/items/2", "Content-Location": "http://api.example/items/3"], status: 201)
        #expect(CachePolicy.invalidatedTargets(by: post, response: created) == ["/items/1?x=1", "/items/2", "/items/3"])
        let foreign = Self.response(["Location": "http://other.example/items/2", "Content-Location": "4"], status: 303)
        #expect(CachePolicy.invalidatedTargets(by: post, response: foreign) == ["/items/1?x=1", "/items/4"])
        #expect(CachePolicy.invalidatedTargets(by: post, response: Self.response([:], status: 500)).isEmpty)
        #expect(CachePolicy.invalidatedTargets(by: Self.request(), response: Self.response([:])).isEmpty)
        #expect(CachePolicy.invalidatedTargets(by: Self.request(method: .delete), response: Self.response(["Location": "mailto:a@b"], status: 204))
            == ["/items/1"])
    }
}
