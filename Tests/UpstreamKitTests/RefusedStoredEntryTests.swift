import HTTPBasics
import Testing

@testable import UpstreamKit

/// Issue #30: a shared-tier entry holding an answer that no cache of the gateway stores is
/// refused when decoded, and the tier hears why; one of another layout is a silent miss.
@Suite("Stored answers the shared tier must not serve")
struct RefusedStoredEntryTests {
    private static let key = "test\nhttp://origin\n/items/1\n"

    private static func decode(_ response: Response) -> (StoredResponse?, [String]) {
        let stored = StoredResponse(response: response, requestTime: 1_700_000_000, responseTime: 1_700_000_000, varying: [])
        let bytes = StoredResponseCoding.encode(stored, key: key, digest: StoredResponseCodingTests.digest)
        var reasons: [String] = []
        let decoded = StoredResponseCoding.decode(
            bytes, key: key, for: CachingTransportTests.request(), digest: StoredResponseCodingTests.digest) { reasons.append($0) }
        return (decoded, reasons)
    }

    @Test("1xx, 206 and 304 answers are refused", arguments: [100, 101, 103, 199, 206, 304])
    func statuses(code: Int) {
        let (decoded, reasons) = Self.decode(Response(status: HTTPStatus(code: code), headers: ["Cache-Control": "max-age=60"]))
        #expect(decoded == nil)
        #expect(reasons == ["status \(code) is never stored"])
    }

    @Test("a field that could split the answer, a hop-by-hop field or Set-Cookie is refused", arguments: [
        ("X-Note", "a\r\nSet-Cookie: s=1"), ("Bad Name", "x"), ("Connection", "close"), ("Upgrade", "websocket"),
        ("Transfer-Encoding", "chunked"), ("Set-Cookie", "session=attacker"),
    ])
    func fields(name: String, value: String) {
        var headers = HTTPHeaders()
        headers.add(name, value)
        let (decoded, reasons) = Self.decode(Response(status: .ok, headers: headers))
        #expect(decoded == nil)
        #expect(reasons.count == 1)
    }

    @Test("an entry cut short is refused and reported; one of another layout is a silent miss")
    func layouts() {
        let stored = StoredResponse(response: Response(status: .ok, body: [1, 2, 3]), requestTime: 1, responseTime: 2, varying: [])
        let bytes = StoredResponseCoding.encode(stored, key: Self.key, digest: StoredResponseCodingTests.digest)
        var reasons: [String] = []
        let request = CachingTransportTests.request()
        #expect(StoredResponseCoding.decode(Array(bytes.dropLast()), key: Self.key, for: request, digest: StoredResponseCodingTests.digest) { reasons.append($0) } == nil)
        #expect(StoredResponseCoding.decode(bytes + [0], key: Self.key, for: request, digest: StoredResponseCodingTests.digest) { reasons.append($0) } == nil)
        #expect(reasons.count == 2)
        var older = bytes
        older[3] = 1
        #expect(StoredResponseCoding.decode(older, key: Self.key, for: request, digest: StoredResponseCodingTests.digest) { reasons.append($0) } == nil)
        #expect(reasons.count == 2)
        #expect(StoredResponseCoding.decode(bytes, key: Self.key, for: request, digest: StoredResponseCodingTests.digest)?.response.body == [1, 2, 3])
    }
}
