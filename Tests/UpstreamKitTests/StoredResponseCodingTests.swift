import HTTPBasics
import Testing

@testable import UpstreamKit

@Suite("Stored answers as shared-tier bytes")
struct StoredResponseCodingTests {
    /// A stand-in for the tier's SHA-256 (FNV-1a, 64 bits): the layout, not the digest, is under test.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return (0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * $0)) }
    }

    private static let key = "test\nhttp://origin\n/items/1\n"
    /// A request with the values `stored` varies on.
    private static let request = CachingTransportTests.request(headers: ["Accept-Language": "de"])

    private func encode(_ stored: StoredResponse) -> [UInt8] { StoredResponseCoding.encode(stored, key: Self.key, digest: Self.digest) }

    private func decode(_ bytes: [UInt8], for request: TransportRequest = Self.request) -> StoredResponse? {
        StoredResponseCoding.decode(bytes, key: Self.key, for: request, digest: Self.digest)
    }

    private static func bytes(_ bytes: [UInt8], contain part: [UInt8]) -> Bool {
        bytes.count >= part.count && (0...bytes.count - part.count).contains { bytes[$0..<$0 + part.count].elementsEqual(part) }
    }

    private let stored = StoredResponse(
        response: Response(
            status: HTTPStatus(code: 203), headers: ["Cache-Control": "max-age=60", "ETag": "\"é1\"", "X-Empty": ""], body: [0, 1, 2, 255]),
        requestTime: 1_700_000_000.25, responseTime: 1_700_000_000.5,
        varying: [StoredResponse.VaryField(name: "accept-language", value: "de"), StoredResponse.VaryField(name: "accept", value: nil)])

    @Test("an entry decodes to what was encoded")
    func roundTrip() throws {
        let decoded = try #require(decode(encode(stored)))
        #expect(decoded.response.status.code == 203)
        #expect(decoded.response.headers == stored.response.headers)
        #expect(decoded.response.body == stored.response.body)
        #expect(decoded.requestTime == stored.requestTime && decoded.responseTime == stored.responseTime)
        #expect(decoded.varying == stored.varying)
        #expect(CachePolicy.freshnessLifetime(of: decoded, settings: CacheSettings()) == 60)
    }

    @Test("every truncation, any trailing byte, another version or foreign bytes are a miss")
    func corrupt() {
        let bytes = encode(stored)
        for length in 0..<bytes.count {
            #expect(decode(Array(bytes[..<length])) == nil, "cut at \(length)")
        }
        #expect(decode(bytes + [0]) == nil)
        var otherVersion = bytes
        otherVersion[3] = 1
        #expect(decode(otherVersion) == nil, "the first layout, which held the values in clear, is a miss")
        #expect(decode(Array("{\"status\":200}".utf8)) == nil)
        // A count that promises more fields than there are bytes.
        var huge = Array(bytes[..<24])
        huge += [255, 255, 255, 255]
        #expect(decode(huge) == nil)
    }

    @Test("varying fields are stored as digests of the key, name and value, and matched by digest")
    func varyingFieldsAsDigests() throws {
        var credentialed = stored
        credentialed.varying = [StoredResponse.VaryField(name: "authorization", value: "Bearer s3cret-token"), StoredResponse.VaryField(name: "accept", value: nil)]
        let bytes = encode(credentialed)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("s3cret"))
        let digest = Self.digest(Array(Self.key.utf8) + [0] + Array("authorization".utf8) + [0] + Array("Bearer s3cret-token".utf8))
        #expect(Self.bytes(bytes, contain: digest))
        let matching = CachingTransportTests.request(headers: ["Authorization": "Bearer s3cret-token"])
        let decoded = try #require(decode(bytes, for: matching))
        #expect(decoded.varying == credentialed.varying, "read back with the request's own values")
        #expect(decode(bytes, for: CachingTransportTests.request(headers: ["Authorization": "Bearer other"])) == nil)
        #expect(decode(bytes, for: CachingTransportTests.request()) == nil, "a field the entry had is missing")
        #expect(decode(bytes, for: CachingTransportTests.request(headers: ["Authorization": "Bearer s3cret-token", "Accept": "*/*"])) == nil)
        // The same value in another entry has another digest.
        let elsewhere = StoredResponseCoding.encode(credentialed, key: Self.key + "x", digest: Self.digest)
        #expect(!Self.bytes(elsewhere, contain: digest))
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
