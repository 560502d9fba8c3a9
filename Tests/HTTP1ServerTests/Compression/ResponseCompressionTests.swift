import HTTP1
import HTTP1Server
import HTTPBasics
import Testing

@Suite("Response compression")
struct ResponseCompressionTests {
    static let body = Compressed.sampleText(count: 4000)
    let compression = ResponseCompression(minimumBytes: 1024)

    /// The answer `compression` makes of `response` for a request with `headers`, and what it reported.
    func applied(
        _ response: HTTPResponse, method: HTTPMethod = .get, acceptEncoding: String? = "gzip", _ compression: ResponseCompression? = nil
    ) -> (HTTPResponse, ResponseCompression.Outcome?) {
        var headers = HTTPHeaders()
        if let acceptEncoding { headers.add("Accept-Encoding", acceptEncoding) }
        var response = response
        let outcome = (compression ?? self.compression).apply(to: &response, answering: HTTPRequest(method: method, target: "/x", headers: headers))
        return (response, outcome)
    }

    func inflated(_ body: [UInt8]) throws -> [UInt8] {
        let inflater = try Inflater(format: .gzip)
        var output: [UInt8] = []
        try body.withUnsafeBytes { try inflater.inflate($0, appendingTo: &output, maximumOutputBytes: 1 << 20) }
        #expect(inflater.isFinished)
        return output
    }

    @Test("a JSON answer to a request that accepts gzip is gzipped, with Vary and a weak ETag", arguments: [
        "application/json", "application/problem+json", "Application/JSON; charset=utf-8", "text/plain", "text/html;charset=utf-8",
        "application/vnd.api+json", "application/xml", "application/atom+xml",
    ])
    func compresses(type: String) throws {
        let (response, outcome) = applied(HTTPResponse(status: .ok, headers: ["Content-Type": type, "ETag": #""v1""#], body: Self.body))
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["ETag"] == #"W/"v1""#)
        #expect(try inflated(response.body) == Self.body)
        #expect(outcome?.identityBytes == Self.body.count && outcome?.encodedBytes == response.body.count)
        #expect(response.body.count < Self.body.count / 3)
    }

    @Test("a media type that does not compress, or none, is left alone, without Vary", arguments: [
        "image/png", "application/octet-stream", "application/jsonx", "text", "application/+json", nil,
    ] as [String?])
    func otherTypes(type: String?) {
        var headers = HTTPHeaders()
        if let type { headers.add("Content-Type", type) }
        let original = HTTPResponse(status: .ok, headers: headers, body: Self.body)
        let (response, outcome) = applied(original)
        #expect(response.headers == original.headers && response.body == Self.body && outcome == nil)
    }

    @Test("an answer already encoded, a range or marked no-transform passes untouched", arguments: [
        ("Content-Encoding", "gzip"), ("Content-Encoding", "br"), ("Content-Range", "bytes 0-3999/8000"),
        ("Cache-Control", "public, No-Transform"),
    ])
    func untouched(name: String, value: String) {
        let original = HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", name: value], body: Self.body)
        let (response, outcome) = applied(original)
        #expect(response.headers == original.headers && response.body == Self.body && outcome == nil)
    }

    @Test("Vary goes on every negotiable answer, compressed or not, once", arguments: [
        ("gzip", true), ("gzip;q=0", false), (nil, false), ("identity", false),
    ] as [(String?, Bool)])
    func vary(acceptEncoding: String?, compressed: Bool) {
        let (response, _) = applied(.json(Self.body), acceptEncoding: acceptEncoding)
        #expect(response.headers.values(named: "Vary") == ["Accept-Encoding"])
        #expect(response.headers["Content-Encoding"] == (compressed ? "gzip" : nil))
    }

    @Test("Vary already naming Accept-Encoding or * is kept; another Vary is extended")
    func existingVary() {
        for vary in ["accept-encoding", "Origin, Accept-Encoding", "*"] {
            let (response, _) = applied(.json(Self.body, headers: ["Vary": vary]))
            #expect(response.headers.values(named: "Vary") == [vary])
        }
        let (response, _) = applied(.json(Self.body, headers: ["Vary": "Origin"]))
        #expect(response.headers.values(named: "Vary") == ["Origin", "Accept-Encoding"])
    }

    @Test("no Accept-Encoding, or one that prefers identity, gets identity with Vary", arguments: [
        nil, "", "identity", "deflate, br", "gzip;q=0", "gzip;q=0.5, identity",
    ] as [String?])
    func notAccepted(acceptEncoding: String?) {
        let (response, outcome) = applied(.json(Self.body, headers: ["ETag": #""v1""#]), acceptEncoding: acceptEncoding)
        #expect(response.body == Self.body && outcome == nil)
        #expect(response.headers["Content-Encoding"] == nil && response.headers["ETag"] == #""v1""#)
        #expect(response.headers["Vary"] == "Accept-Encoding")
    }

    @Test("below the threshold identity goes out without Vary, whatever the request asks")
    func threshold() {
        let small = Array(Self.body.prefix(1023)), atThreshold = Array(Self.body.prefix(1024))
        for acceptEncoding in ["gzip", "gzip, identity;q=0", "*;q=0"] {
            let (response, outcome) = applied(.json(small, headers: ["ETag": #""v1""#]), acceptEncoding: acceptEncoding)
            #expect(outcome == nil && response.body == small && response.headers["Vary"] == nil && response.headers["ETag"] == #""v1""#)
        }
        #expect(applied(.json(atThreshold)).1 != nil)
        #expect(applied(.json(small), ResponseCompression(minimumBytes: 0)).1 != nil)
        #expect(applied(.json([]), ResponseCompression(minimumBytes: 0)).0.headers["Vary"] == nil)
    }

    @Test("a body gzip would not make smaller goes out as it is")
    func incompressible() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let (response, outcome) = applied(HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: noise))
        #expect(outcome == nil && response.body == noise && response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Vary"] == "Accept-Encoding")
    }

    @Test("HEAD is answered with identity fields and Vary; 204, 206 and 1xx are left alone")
    func headAndEmptyStatuses() {
        let (head, outcome) = applied(.json(Self.body, headers: ["ETag": #""v1""#]), method: .head)
        #expect(outcome == nil && head.body == Self.body && head.headers["Content-Encoding"] == nil)
        #expect(head.headers["Vary"] == "Accept-Encoding" && head.headers["ETag"] == #""v1""#)
        for status in [204, 206, 101] {
            let original = HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: [])
            #expect(applied(original).0.headers == original.headers)
        }
    }

    @Test("a 304 passes as it is: its ETag is the one the origin sent, for clients that prefer gzip too")
    func notModified() {
        let notModified = HTTPResponse(status: .notModified, headers: ["ETag": #""v1""#, "Cache-Control": "max-age=60"])
        for acceptEncoding in ["gzip", nil] as [String?] {
            let (response, outcome) = applied(notModified, acceptEncoding: acceptEncoding)
            #expect(outcome == nil && response.headers == notModified.headers && response.body.isEmpty)
        }
    }

    @Test("answers of any other status compress too: problems, created, not found", arguments: [201, 400, 404, 500, 503])
    func statuses(status: Int) {
        let problem = HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": "application/problem+json"], body: Self.body)
        #expect(applied(problem).0.headers["Content-Encoding"] == "gzip")
    }
}
