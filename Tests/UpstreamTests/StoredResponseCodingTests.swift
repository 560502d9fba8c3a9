import HTTPBasics
import Testing

@testable import Upstream

@Suite("Stored answers as shared-tier bytes")
struct StoredResponseCodingTests {
    private let stored = StoredResponse(
        response: Response(
            status: HTTPStatus(code: 203), headers: ["Cache-Control": "max-age=60", "ETag": "\"é1\"", "X-Empty": ""], body: [0, 1, 2, 255]),
        requestTime: 1_700_000_000.25, responseTime: 1_700_000_000.5,
        varying: [StoredResponse.VaryField(name: "accept-language", value: "de"), StoredResponse.VaryField(name: "accept", value: nil)])

    @Test("an entry decodes to what was encoded")
    func roundTrip() throws {
        let decoded = try #require(StoredResponseCoding.decode(StoredResponseCoding.encode(stored)))
        #expect(decoded.response.status.code == 203)
        #expect(decoded.response.headers == stored.response.headers)
        #expect(decoded.response.body == stored.response.body)
        #expect(decoded.requestTime == stored.requestTime && decoded.responseTime == stored.responseTime)
        #expect(decoded.varying == stored.varying)
        #expect(CachePolicy.freshnessLifetime(of: decoded, settings: CacheSettings()) == 60)
    }

    @Test("every truncation, any trailing byte, another version or foreign bytes are a miss")
    func corrupt() {
        let bytes = StoredResponseCoding.encode(stored)
        for length in 0..<bytes.count {
            #expect(StoredResponseCoding.decode(Array(bytes[..<length])) == nil, "cut at \(length)")
        }
        #expect(StoredResponseCoding.decode(bytes + [0]) == nil)
        var otherVersion = bytes
        otherVersion[3] = 2
        #expect(StoredResponseCoding.decode(otherVersion) == nil)
        #expect(StoredResponseCoding.decode(Array("{\"status\":200}".utf8)) == nil)
        // A count that promises more fields than there are bytes.
        var huge = Array(bytes[..<24])
        huge += [255, 255, 255, 255]
        #expect(StoredResponseCoding.decode(huge) == nil)
    }

    @Test("the shared lifetime is the freshness left plus the longest stale window")
    func sharedLifetime() {
        let settings = CacheSettings(staleIfError: .seconds(30))
        let now = stored.responseTime + 10
        #expect(abs(CachePolicy.sharedLifetime(of: stored, settings: settings, now: now) - (60 - 10.25 + 30)) < 0.001)
        var revalidating = stored
        revalidating.response.headers.set("Cache-Control", "max-age=60, must-revalidate")
        #expect(abs(CachePolicy.sharedLifetime(of: revalidating, settings: settings, now: now) - (60 - 10.25)) < 0.001)
    }
}
