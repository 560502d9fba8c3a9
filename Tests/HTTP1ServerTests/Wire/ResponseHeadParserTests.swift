import HTTPBasics
import Testing

@testable import HTTP1

@Suite("ResponseHeadParser")
struct ResponseHeadParserTests {
    @Test func parsesAResponseWithALength() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello"
        let parsed = try #require(try parseResponse(text).get())
        #expect(parsed.length == text.utf8.count - 5)
        #expect(parsed.head.status == .ok)
        #expect(parsed.head.version == .http1_1)
        #expect(parsed.head.headers["content-type"] == "application/json")
        #expect(parsed.head.framing == .contentLength(5))
        #expect(parsed.head.keepAlive)
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "GET", ResponseHead.Framing.chunked, true),
        ("HTTP/1.1 200 OK\r\n\r\n", "GET", .untilClose, false),
        ("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\n", "GET", .contentLength(3), false),
        ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\n", "GET", .contentLength(3), true),
        ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\n", "GET", .contentLength(3), false),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", "HEAD", .none, true),
        ("HTTP/1.1 204 No Content\r\n\r\n", "DELETE", .none, true),
        ("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", "GET", .none, true),
        ("HTTP/1.1 100 Continue\r\n\r\n", "POST", .none, true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "GET", .none, true),
        ("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n", "GET", .none, true),
        ("HTTP/1.1 200 OK\nContent-Length: 1\n\n", "GET", .contentLength(1), true),
    ])
    func framesBodies(text: String, method: String, framing: ResponseHead.Framing, keepAlive: Bool) throws {
        let parsed = try #require(try parseResponse(text, requestMethod: HTTPMethod(rawValue: method)).get())
        #expect(parsed.head.framing == framing)
        #expect(parsed.head.keepAlive == keepAlive)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX : a\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 099 Odd\r\n\r\n",
        "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.2 200 OK\r\n\r\n",
        "http/1.1 200 OK\r\n\r\n",
        "HTTP/1.1 200 O\u{01}K\r\n\r\n",
        "\r\nHTTP/1.1 200 OK\r\n\r\n",
        "HTTP/1.1 200OK\r\n\r\n",
    ])
    func refuses(text: String) {
        #expect(throws: HTTPParseError.self) { try parseResponse(text).get() }
    }

    @Test func parsesOneByteAtATime() throws {
        let text = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nContent-Length: 0\r\n\r\n"
        let bytes = Array(text.utf8)
        var parser = ResponseHeadParser()
        var parsed: ParsedResponseHead?
        for count in 1...bytes.count where parsed == nil {
            parsed = try bytes[0..<count].withUnsafeBytes { try parser.parse($0, requestMethod: .get) }
            #expect((parsed == nil) == (count < bytes.count))
        }
        #expect(parsed?.head.status.code == 503)
        #expect(parsed?.head.headers["Retry-After"] == "2")
    }

    @Test func skipsInterimResponses() throws {
        var bytes = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8)
        var parser = ResponseHeadParser()
        let interim = try #require(try bytes.withUnsafeBytes { try parser.parse($0, requestMethod: .post) })
        #expect(interim.head.status == .continue)
        bytes.removeFirst(interim.length)
        let final = try #require(try bytes.withUnsafeBytes { try parser.parse($0, requestMethod: .post) })
        #expect(final.head.status == .created)
        #expect(final.head.framing == .contentLength(2))
    }
}
