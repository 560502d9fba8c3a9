import Foundation
import HTTPBasics
import Testing

@testable import HTTP1
@testable import HTTP1Server

@Suite("Head writers")
struct WriterTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func writesAResponseHead() throws {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("Set-Cookie", "a=1")
        headers.add("Set-Cookie", "b=2")
        var buffer: [UInt8] = []
        ResponseHeadWriter.write(HTTPResponse(status: .ok, headers: headers, body: Array("hello".utf8)), keepAlive: true, into: &buffer)
        let head = text(buffer)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\nDate: "))
        #expect(head.hasSuffix(" GMT\r\nContent-Length: 5\r\nContent-Type: application/json\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n"))
        #expect(!head.contains("Connection"))

        var parser = ResponseHeadParser()
        let parsed = try #require(try buffer.withUnsafeBytes { try parser.parse($0, requestMethod: .get) })
        #expect(parsed.length == buffer.count)
        #expect(parsed.head.framing == .contentLength(5))
        #expect(parsed.head.headers.values(named: "set-cookie") == ["a=1", "b=2"])
    }

    @Test func statesTheConnectionsFate() {
        var closing: [UInt8] = []
        ResponseHeadWriter.write(HTTPResponse(status: .notFound), keepAlive: false, into: &closing)
        #expect(text(closing).contains("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
        var old: [UInt8] = []
        ResponseHeadWriter.write(HTTPResponse(status: .ok), keepAlive: true, requestVersion: .http1_0, into: &old)
        #expect(text(old).contains("\r\nConnection: keep-alive\r\n"))
        var empty: [UInt8] = []
        ResponseHeadWriter.write(HTTPResponse(status: .noContent), keepAlive: true, into: &empty)
        #expect(!text(empty).contains("Content-Length"))
    }

    @Test func letsABodilessAnswerToHEADDeclareItsLength() {
        func head(_ response: HTTPResponse, answersHEAD: Bool) -> String {
            var buffer: [UInt8] = []
            ResponseHeadWriter.write(response, keepAlive: true, answersHEAD: answersHEAD, into: &buffer)
            return text(buffer)
        }
        let declared = HTTPResponse(status: .ok, headers: ["Content-Length": "1234"])
        #expect(head(declared, answersHEAD: true).contains("\r\nContent-Length: 1234\r\n"))
        #expect(head(declared, answersHEAD: false).contains("\r\nContent-Length: 0\r\n"))
        #expect(head(HTTPResponse(status: .ok, headers: ["Content-Length": "1234"], body: [1, 2]), answersHEAD: true).contains("\r\nContent-Length: 2\r\n"))
        for value in ["12a", "-1", "", "1 2", "1234567890123456789"] {
            let written = head(HTTPResponse(status: .ok, headers: ["Content-Length": value]), answersHEAD: true)
            #expect(written.contains("\r\nContent-Length: 0\r\n") && written.components(separatedBy: "Content-Length").count == 2)
        }
        #expect(!head(HTTPResponse(status: .notModified, headers: ["Content-Length": "1234"]), answersHEAD: true).contains("Content-Length"))
    }

    @Test func dropsFramingAndInjectedFields() {
        var headers = HTTPHeaders()
        headers.add("Content-Length", "999")
        headers.add("transfer-encoding", "chunked")
        headers.add("Connection", "upgrade")
        headers.add("Date", "yesterday")
        headers.add("X-Evil", "a\r\nSet-Cookie: stolen=1")
        headers.add("X-Bad Name", "v")
        headers.add("X-Good", "kept")
        var buffer: [UInt8] = []
        ResponseHeadWriter.write(HTTPResponse(status: .ok, headers: headers, body: [1, 2]), keepAlive: true, into: &buffer)
        let head = text(buffer)
        #expect(head.contains("Content-Length: 2\r\n"))
        #expect(!head.contains("999"))
        #expect(!head.contains("chunked"))
        #expect(!head.contains("upgrade"))
        #expect(!head.contains("yesterday"))
        #expect(!head.contains("stolen"))
        #expect(!head.contains("Bad Name"))
        #expect(head.contains("X-Good: kept\r\n"))
    }

    @Test func writesCommonFieldsEncodedOnceOnEveryHead() {
        let common = ResponseHeadWriter.encode(["X-Content-Type-Options": "nosniff", "Content-Length": "1", "X-Evil": "a\r\nb: c"])
        #expect(text(common) == "X-Content-Type-Options: nosniff\r\n")
        var buffer: [UInt8] = []
        ResponseHeadWriter.write(
            HTTPResponse(status: .notFound, headers: ["X-Own": "1"], body: [1]), keepAlive: false, commonFields: common, into: &buffer)
        #expect(text(buffer).hasSuffix("Connection: close\r\nX-Content-Type-Options: nosniff\r\nX-Own: 1\r\n\r\n"))
    }

    @Test func writesARequestHead() throws {
        var headers = HTTPHeaders()
        headers.add("Accept", "application/json")
        headers.add("Host", "ignored")
        headers.add("Content-Length", "42")
        var buffer: [UInt8] = Array("prefix".utf8)
        try RequestHeadWriter.write(
            method: .post, target: "/api/people/1/?x=%20", host: "swapi.dev", headers: headers, contentLength: 2, into: &buffer)
        #expect(text(buffer) == "prefixPOST /api/people/1/?x=%20 HTTP/1.1\r\nHost: swapi.dev\r\nAccept: application/json\r\nContent-Length: 2\r\n\r\n")
        var get: [UInt8] = []
        try RequestHeadWriter.write(method: .get, target: "/", host: "a:8080", headers: HTTPHeaders(), contentLength: nil, into: &get)
        #expect(text(get) == "GET / HTTP/1.1\r\nHost: a:8080\r\n\r\n")
    }

    @Test(arguments: [
        ("GET", "/a b", "h", "X", "v", RequestHeadError.invalidTarget),
        ("GET", "/a\r\nX: y", "h", "X", "v", .invalidTarget),
        ("GET", "/a\u{00}", "h", "X", "v", .invalidTarget),
        ("GET", "", "h", "X", "v", .invalidTarget),
        ("GE T", "/", "h", "X", "v", .invalidMethod),
        ("GET", "/", "h\r\nX: y", "X", "v", .invalidHost),
        ("GET", "/", "h", "X:Y", "v", .invalidFieldName),
        ("GET", "/", "h", "X\r\n", "v", .invalidFieldName),
        ("GET", "/", "h", "X", "v\r\nInjected: 1", .invalidFieldValue(name: "X")),
        ("GET", "/", "h", "X", "v\nw", .invalidFieldValue(name: "X")),
        ("GET", "/", "h", "X", "v\u{00}", .invalidFieldValue(name: "X")),
    ])
    func refusesInjection(method: String, target: String, host: String, name: String, value: String, error: RequestHeadError) {
        var headers = HTTPHeaders()
        headers.add(name, value)
        var buffer: [UInt8] = [1]
        #expect(throws: error) {
            try RequestHeadWriter.write(
                method: HTTPMethod(rawValue: method), target: target, host: host, headers: headers, contentLength: nil, into: &buffer)
        }
        #expect(buffer == [1])
    }

    /// Fields checked by `HTTPHeaders.checkSyntax()` are copied as they are; one added after the
    /// check (by an action, say) is still checked by the writer.
    @Test func checksFieldsAddedAfterTheHeadersWereChecked() throws {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        #expect(headers.checkSyntax() == nil)
        var buffer: [UInt8] = []
        try RequestHeadWriter.write(method: .get, target: "/", host: "h", headers: headers, contentLength: nil, into: &buffer)
        #expect(text(buffer) == "GET / HTTP/1.1\r\nHost: h\r\nAccept: application/json\r\n\r\n")
        headers.add("Cookie", "a\r\nInjected: yes")
        #expect(throws: RequestHeadError.invalidFieldValue(name: "Cookie")) {
            try RequestHeadWriter.write(method: .get, target: "/", host: "h", headers: headers, contentLength: nil, into: &buffer)
        }
    }

    @Test func encodesProblemDetails() {
        let problem = ProblemDetails(status: .badGateway, detail: "upstream \"swapi\" said:\n\\ \u{01} é", instance: "/v1/people/1")
        #expect(text(problem.jsonBytes) == #"{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"upstream \"swapi\" said:\n\\ \u0001 é","instance":"/v1/people/1"}"#)
        let bare = ProblemDetails(status: .notFound)
        #expect(text(bare.jsonBytes) == #"{"type":"about:blank","title":"Not Found","status":404}"#)
        let response = HTTPResponse.problem(.tooManyRequests, detail: "slow down")
        #expect(response.status.code == 429)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(HTTPResponse.json(Array("{}".utf8)).headers["content-type"] == "application/json")
    }
}
