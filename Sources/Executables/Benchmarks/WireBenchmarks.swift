import HTTP1
import HTTP1Server
import HTTPBasics

/// The HTTP/1.1 wire code on the hot path: request heads in, response heads out, and the
/// upstream side (response heads in, request heads out).
enum WireBenchmarks {
    /// What wrk sends.
    static let minimalRequest = Array("GET /v1/people/1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n".utf8)

    /// What a browser behind a proxy sends: a query, a dozen fields, a cookie.
    static let browserRequest = Array((
        "GET /v1/deal?players=4&cards=5 HTTP/1.1\r\n"
            + "Host: api.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: application/json, text/plain, */*\r\n"
            + "Accept-Language: en-GB,en;q=0.7,de;q=0.3\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Referer: https://app.example.com/table/42\r\n"
            + "Origin: https://app.example.com\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a; theme=dark\r\n"
            + "X-Request-ID: 0af7651916cd43dd8448eb211c80319c\r\n"
            + "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n"
            + "X-Forwarded-For: 203.0.113.7\r\n"
            + "\r\n").utf8)

    /// What the upstream simulator (Go's net/http) answers.
    static let upstreamResponse = Array((
        "HTTP/1.1 200 OK\r\n"
            + "Content-Type: application/json\r\n"
            + "Date: Sun, 22 Nov 2026 01:43:50 GMT\r\n"
            + "Content-Length: 577\r\n"
            + "\r\n").utf8)

    static var all: [Benchmark] {
        [
            parse("wire/parse request head (wrk, 1 field)", minimalRequest),
            parse("wire/parse request head (browser, 12 fields)", browserRequest),
            .repeating("wire/parse response head (upstream, 3 fields)") {
                var parser = ResponseHeadParser()
                let parsed = try upstreamResponse.withUnsafeBytes { bytes throws(HTTPParseError) in
                    try parser.parse(bytes, requestMethod: .get)
                }
                consume(parsed)
            },
            writeResponseHead(),
            writeRequestHead(),
        ]
    }

    private static func parse(_ name: String, _ head: [UInt8]) -> Benchmark {
        .repeating(name) {
            var parser = RequestHeadParser()
            let parsed = try head.withUnsafeBytes { bytes throws(HTTPParseError) in try parser.parse(bytes) }
            consume(parsed)
        }
    }

    private static func writeResponseHead() -> Benchmark {
        var headers = HTTPHeaders()
        headers.add("X-Gateway-Completed", "true")
        headers.add("Content-Type", "application/json")
        headers.add("X-Request-ID", "0af7651916cd43dd8448eb211c80319c")
        let response = HTTPResponse(status: .ok, headers: headers, body: Array(repeating: 32, count: 312))
        return .repeating("wire/write response head (3 fields)") {
            var head: [UInt8] = []
            ResponseHeadWriter.write(response, keepAlive: true, into: &head)
            consume(head)
        }
    }

    private static func writeRequestHead() -> Benchmark {
        var headers = HTTPHeaders()
        headers.add("Accept", "application/json")
        headers.add("X-Request-ID", "0af7651916cd43dd8448eb211c80319c")
        headers.add("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        let fields = headers
        return .repeating("wire/write request head (3 fields)") {
            var head: [UInt8] = []
            try RequestHeadWriter.write(
                method: .get, target: "/swapi/api/people/1/", host: "127.0.0.1:8081", headers: fields,
                contentLength: nil, into: &head)
            consume(head)
        }
    }
}
