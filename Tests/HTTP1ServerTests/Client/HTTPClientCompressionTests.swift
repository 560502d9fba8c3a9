import Foundation
import HTTP1
import HTTP1Client
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Synchronization
import Testing

/// Compressed answers through real sockets: what the client asks for, and how it inflates gzip
/// and deflate bodies framed by length, chunks or the end of the connection.
@Suite("HTTPClient compression")
struct HTTPClientCompressionTests {
    static let text = Compressed.sampleText(count: 50_000)

    /// A server answering every request on a connection with `head` (status line and fields,
    /// without the blank line) and `body` framed as `framing` says, recording the request heads.
    final class CompressingServer: Sendable {
        enum Framing: Sendable {
            case length
            /// Chunks of this many bytes.
            case chunked(Int)
            case untilClose
        }

        /// The request heads received, shared with the connections' threads.
        final class HeadLog: Sendable {
            let heads = Mutex<[String]>([])
        }

        let stub: StubServer
        private let log = HeadLog()

        init(fields: String, body: [UInt8], framing: Framing) throws {
            let log = log
            stub = try StubServer { connection in
                while let head = connection.readRequest() {
                    log.heads.withLock { $0.append(head) }
                    var response = Array("HTTP/1.1 200 OK\r\n\(fields)".utf8)
                    switch framing {
                    case .length:
                        response += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
                    case .chunked(let size):
                        response += Array("Transfer-Encoding: chunked\r\n\r\n".utf8)
                        var start = 0
                        while start < body.count {
                            let end = min(start + size, body.count)
                            response += Array("\(String(end - start, radix: 16))\r\n".utf8) + body[start..<end] + Array("\r\n".utf8)
                            start = end
                        }
                        response += Array("0\r\n\r\n".utf8)
                    case .untilClose:
                        response += Array("Connection: close\r\n\r\n".utf8) + body
                    }
                    guard connection.write(response) else { return }
                    if case .untilClose = framing { return }
                }
            }
        }

        var receivedHeads: [String] { log.heads.withLock { $0 } }

        func send(
            _ client: HTTPClient, acceptsCompression: Bool = true, headers: HTTPHeaders = [:], maximumResponseBytes: Int = 1 << 20
        ) async throws(HTTPClientError) -> HTTPResponse {
            var headers = headers
            headers.add("Accept-Encoding", "br")
            let request = HTTPClientRequest(host: "127.0.0.1", port: stub.port, target: "/", headers: headers, acceptsCompression: acceptsCompression)
            return try await client.send(request, timeout: .seconds(10), maximumResponseBytes: maximumResponseBytes)
        }
    }

    @Test("gzip and deflate (zlib-wrapped and raw) bodies inflate, by length, in chunks or until close", arguments: [
        ("gzip", Compressed.Wrapping.gzip), ("x-gzip", .gzip), ("deflate", .zlib), ("Deflate", .raw),
    ], [CompressingServer.Framing.length, .chunked(1000), .chunked(1), .untilClose])
    func inflates(coding: (name: String, wrapping: Compressed.Wrapping), framing: CompressingServer.Framing) async throws {
        let server = try CompressingServer(
            fields: "Content-Encoding: \(coding.name)\r\nContent-Type: application/json\r\n", body: Compressed.bytes(Self.text, coding.wrapping),
            framing: framing)
        let client = HTTPClient()
        let response = try await server.send(client)
        #expect(response.body == Self.text)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(!response.headers.contains("Content-Encoding"))
        #expect(!response.headers.contains("Content-Length"))
        // The connection is reused after an inflated body, and the next one inflates as well.
        if case .untilClose = framing {} else {
            #expect(try await server.send(client).body == Self.text)
            #expect(client.statistics.connectionsOpened == 1)
        }
    }

    @Test("the request asks for gzip and deflate only when it accepts compression and wants no range, never with the caller's field")
    func asks() async throws {
        let server = try CompressingServer(fields: "", body: Array("plain".utf8), framing: .length)
        let client = HTTPClient()
        #expect(try await server.send(client).body == Array("plain".utf8))
        #expect(try await server.send(client, acceptsCompression: false).body == Array("plain".utf8))
        #expect(try await server.send(client, headers: ["Range": "bytes=0-4"]).body == Array("plain".utf8))
        let heads = server.receivedHeads
        #expect(heads.count == 3)
        #expect(heads.first?.contains("\r\nAccept-Encoding: gzip, deflate\r\n") == true)
        #expect(heads.allSatisfy { $0.lowercased().components(separatedBy: "accept-encoding").count <= 2 })
        #expect(heads.dropFirst().allSatisfy { !$0.lowercased().contains("accept-encoding") })
    }

    @Test("a bomb fails as too large while it inflates; so do too many encoded bytes", arguments: [
        CompressingServer.Framing.length, .chunked(4096), .untilClose,
    ])
    func bomb(framing: CompressingServer.Framing) async throws {
        let bomb = Compressed.bytes([UInt8](repeating: 0, count: 16 << 20), .gzip)
        let server = try CompressingServer(fields: "Content-Encoding: gzip\r\n", body: bomb, framing: framing)
        await #expect(throws: HTTPClientError.bodyTooLarge(limit: 1 << 20)) { try await server.send(HTTPClient()) }
    }

    @Test("a truncated or corrupt stream fails naming the coding")
    func truncatedOrCorrupt() async throws {
        let compressed = Compressed.bytes(Self.text, .gzip)
        let truncated = try CompressingServer(fields: "Content-Encoding: gzip\r\n", body: Array(compressed.dropLast(100)), framing: .chunked(500))
        await #expect(throws: HTTPClientError.undecodableBody(reason: "gzip stream truncated")) { try await truncated.send(HTTPClient()) }
        // A zlib header, then a block of the reserved type 3.
        let corrupt = try CompressingServer(fields: "Content-Encoding: deflate\r\n", body: [0x78, 0x9C, 0xFF, 0xFF], framing: .length)
        await #expect(throws: HTTPClientError.undecodableBody(reason: "deflate stream corrupt")) { try await corrupt.send(HTTPClient()) }
    }

    @Test("a coding not asked for fails naming it", arguments: [
        ("br", true, "br"), ("zstd", true, "zstd"), ("gzip, br", true, "gzip, br"), ("gzip", false, "gzip"),
        ("x/compress", true, "an unnamed coding"), (String(repeating: "z", count: 40), true, "an unnamed coding"),
    ])
    func unasked(field: String, acceptsCompression: Bool, named: String) async throws {
        let server = try CompressingServer(fields: "Content-Encoding: \(field)\r\n", body: Array("x".utf8), framing: .length)
        await #expect(throws: HTTPClientError.undecodableBody(reason: "content coding \(named) was not asked for")) {
            try await server.send(HTTPClient(), acceptsCompression: acceptsCompression)
        }
    }

    @Test("identity is an uncompressed body; an empty compressed body is empty")
    func identityAndEmpty() async throws {
        let identity = try CompressingServer(fields: "Content-Encoding: identity\r\n", body: Array("as is".utf8), framing: .length)
        #expect(try await identity.send(HTTPClient(), acceptsCompression: false).body == Array("as is".utf8))
        let empty = try CompressingServer(fields: "Content-Encoding: gzip\r\n", body: [], framing: .length)
        #expect(try await empty.send(HTTPClient()).body.isEmpty)
    }
}
