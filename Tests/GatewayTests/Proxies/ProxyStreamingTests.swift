import Foundation
import GatewayTesting
import HTTP1
import HTTP1Client
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import Gateway

/// Proxy routes with bodies that flow: event streams passed event by event, downloads and uploads
/// of any size passed with bounded memory, upload limits, and a client that goes away ending the
/// upstream's stream. Over loopback, with no sleeps: each side waits for what the other did.
@Suite("Proxy routes: streamed bodies")
struct ProxyStreamingTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(
        upstreams: [origin], endpoints: [],
        proxies: [
            ProxyRoute("/o", upstream: origin, authentication: .none, rateLimit: .off, maximumRequestBytes: 40 << 20),
            ProxyRoute("/small", upstream: origin, authentication: .none, rateLimit: .off, maximumRequestBytes: 1000),
        ])

    /// An upstream server answering with `responder`, and a gateway in front of it.
    private static func start(
        _ responder: some HTTPResponder, environment: [String: String] = [:], log: LogCapture? = nil
    ) throws -> (HTTPServer, GatewayUnderTest) {
        let upstream = try HTTPServer(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .milliseconds(100)), responder: responder)
        Task { await upstream.run() }
        do {
            let gateway = try GatewayUnderTest(
                catalog: catalog, environment: environment.merging(["UPSTREAM_ORIGIN_URL": "http://127.0.0.1:\(upstream.port)"]) { given, _ in given },
                log: log)
            return (upstream, gateway)
        } catch {
            upstream.shutdown()
            throw error
        }
    }

    /// A streaming client request to the gateway.
    private static func request(_ gateway: GatewayUnderTest, _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> HTTPClientRequest {
        HTTPClientRequest(method: method, host: "127.0.0.1", port: gateway.port, target: target, headers: headers)
    }

    @Test("an event stream passes event by event, chunked, neither buffered nor compressed")
    func eventsOneByOne() async throws {
        let seen = Signal()
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream", "Cache-Control": "max-age=60"], bodyStream: .writing { writer in
                for number in 1...5 {
                    try await writer.write(Array("id: \(number)\ndata: event \(number)\n\n".utf8))
                    // The next event goes only once the client has seen this one.
                    await seen.wait(for: number)
                }
            })
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        let response = try await client.send(
            Self.request(gateway, "/o/events", headers: ["Accept-Encoding": "gzip"]), timeout: .seconds(10), maximumResponseBytes: 1 << 20,
            streamingBodiesOver: 0)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Length"] == nil)
        #expect(response.headers["Content-Encoding"] == nil)
        let stream = try #require(response.bodyStream)
        var events: [String] = []
        var pending = ""
        while let piece = try await stream.next() {
            pending += String(decoding: piece, as: UTF8.self)
            while let end = pending.range(of: "\n\n") {
                events.append(String(pending[..<end.lowerBound]))
                pending = String(pending[end.upperBound...])
                seen.reach(events.count)
            }
        }
        #expect(events == (1...5).map { "id: \($0)\ndata: event \($0)" })
        client.shutdown()
        await gateway.stop()
    }

    @Test("a streamed text answer is gzipped for a client that accepts it, each piece flushed as it comes")
    func gzippedInStep() async throws {
        let seen = Signal()
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyStream: .writing { writer in
                for number in 1...3 {
                    try await writer.write(Array(String(repeating: "line \(number)\n", count: 400).utf8))
                    await seen.wait(for: number)
                }
            })
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        var request = Self.request(gateway, "/o/text")
        request.acceptsCompression = true
        let response = try await client.send(request, timeout: .seconds(10), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        #expect(response.headers["Vary"] == "Accept-Encoding")
        let stream = try #require(response.bodyStream)
        var text = ""
        var pieces = 0
        while let piece = try await stream.next() {
            text += String(decoding: piece, as: UTF8.self)
            // The next piece goes only once this one has been inflated here: the gzip stream was flushed.
            pieces = text.count / ("line 1\n".count * 400)
            seen.reach(pieces)
        }
        #expect(text == (1...3).map { String(repeating: "line \($0)\n", count: 400) }.joined())
        client.shutdown()
        await gateway.stop()
    }

    @Test("a traced streamed answer's server span ends with its body, not at its head")
    func spanEndsWithTheBody() async throws {
        let collector = try StubUpstream()
        defer { collector.shutdown() }
        collector.answer("/v1/traces", method: .post, status: 200)
        let released = Signal()
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyStream: .writing { writer in
                try await writer.write(Array("head\n".utf8))
                await released.wait(for: 1)
                try await writer.write(Array("tail\n".utf8))
            })
        }
        let (server, gateway) = try Self.start(upstream, environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL])
        defer { server.shutdown() }
        let response = try await HTTPClient().send(
            Self.request(gateway, "/o/text"), timeout: .seconds(10), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        let stream = try #require(response.bodyStream)
        #expect(try await stream.next() != nil)
        let releasedAt = RequestTracing.wallClockNanoseconds()
        released.reach(1)
        while try await stream.next() != nil {}
        await gateway.stop()
        let spans = collector.received.flatMap { GatewayTracingTests.spans(in: $0.body) }
        let span = try #require(spans.first { $0.kind == 2 })
        #expect(span.end >= releasedAt && span.integers["http.response.body.size"] == 10)
    }

    @Test("a streamed answer is logged when it ends, with its bytes and how it ended, and counts in the compression metrics")
    func loggedAtItsEnd() async throws {
        let log = try LogCapture()
        defer { log.close() }
        let upstream = StreamingResponder { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyStream: .writing { writer in
                try await writer.write(Array(String(repeating: "line\n", count: 400).utf8))
                // The endless one waits for a client that never reads it to its end.
                if request.path.hasSuffix("endless") { try await writer.write(Array("more\n".utf8)); try await Task.sleep(for: .seconds(60)) }
            })
        }
        let (server, gateway) = try Self.start(upstream, log: log)
        defer { server.shutdown() }
        let client = HTTPClient()
        var request = Self.request(gateway, "/o/text")
        request.acceptsCompression = true
        let whole = try await client.send(request, timeout: .seconds(10), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        let stream = try #require(whole.bodyStream)
        while try await stream.next() != nil {}
        let lines = await log.lines { $0.contains { $0.contains(#""path":"/o/text""#) } }
        let line = try #require(lines.first { $0.contains(#""path":"/o/text""#) })
        #expect(line.contains(#""status":200"#) && line.contains(#""headMs":"#))
        #expect(line.hasSuffix(#""bodyEnd":"complete"}"#))
        let metrics = try await gateway.get("/metrics").text
        #expect(metrics.contains("gateway_compressed_responses_total 1\n"))
        #expect(metrics.contains("gateway_compression_input_bytes_total 2000\n"))

        let cut = try await client.send(Self.request(gateway, "/o/endless"), timeout: .seconds(10), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        let cutStream = try #require(cut.bodyStream)
        #expect(try await cutStream.next() != nil)
        cutStream.cancel()
        let cutLines = await log.lines { $0.contains { $0.contains(#""path":"/o/endless""#) } }
        let cutLine = try #require(cutLines.first { $0.contains(#""path":"/o/endless""#) })
        #expect(cutLine.hasSuffix(#""bodyEnd":"cancelled"}"#))
        client.shutdown()
        await gateway.stop()
    }

    @Test("a streamed answer the cache may store is stored when it fits an entry, and passed on untouched when it does not")
    func cacheKeepsWhatFits() async throws {
        let upstream = StreamingResponder { request in
            let size = request.path.hasSuffix("small") ? 80 << 10 : 300 << 10
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream", "Cache-Control": "max-age=60"],
                bodyStream: GeneratedBody.stream(size: size, announcingLength: false))
        }
        let (server, gateway) = try Self.start(upstream, environment: ["CACHE_MAX_ENTRY_BYTES": String(200 << 10)])
        defer { server.shutdown() }
        var statuses: [String] = []
        var sizes: [Int] = []
        for path in ["/o/small", "/o/small", "/o/large", "/o/large"] {
            let response = try await gateway.get(path)
            statuses.append(response.headers["Cache-Status"] ?? "-")
            sizes.append(response.body.count)
        }
        await gateway.stop()
        #expect(sizes == [80 << 10, 80 << 10, 300 << 10, 300 << 10])
        #expect(statuses[0].contains("fwd=uri-miss") && statuses[0].contains("stored"))
        #expect(statuses[1].contains("hit"))
        #expect(statuses[2].contains("fwd=") && !statuses[2].contains("stored"))
        #expect(statuses[3].contains("fwd="))
    }

    @Test("a large download arrives whole, its digest unchanged, read at the client's pace")
    func largeDownload() async throws {
        let size = 8 << 20
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], bodyStream: GeneratedBody.stream(size: size))
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        let response = try await client.send(Self.request(gateway, "/o/file"), timeout: .seconds(20), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Length"] == String(size))
        var digest = Digest()
        var largest = 0
        while let piece = try await #require(response.bodyStream).next() {
            digest.add(piece)
            largest = max(largest, piece.count)
        }
        #expect(digest.count == size)
        #expect(digest == GeneratedBody.digest(size: size))
        #expect(largest <= 1 << 20)
        client.shutdown()
        await gateway.stop()
    }

    @Test("a client that stops reading stops the upstream's producer after a bounded amount")
    func backpressure() async throws {
        let produced = Atomic<Int>(0)
        let size = 256 << 20
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, bodyStream: .writing { writer in
                var sent = 0
                while sent < size {
                    try await writer.write([UInt8](repeating: UInt8(truncatingIfNeeded: sent >> 16), count: 64 << 10))
                    sent += 64 << 10
                    produced.store(sent, ordering: .relaxed)
                }
            })
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        let response = try await client.send(Self.request(gateway, "/o/endless"), timeout: .seconds(20), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        let stream = try #require(response.bodyStream)
        _ = try await stream.next()
        // The client reads nothing more. Socket buffers on each hop hold a few MiB; the producer
        // must stall long before it has written everything. Stalling is the absence of progress,
        // so it is watched for (at most 3 s), not waited for.
        var stalledAt = -1
        var unchanged = 0
        let givesUpAt = ContinuousClock.now + .seconds(3)
        while unchanged < 4, ContinuousClock.now < givesUpAt {
            try await Task.sleep(for: .milliseconds(50))
            let now = produced.load(ordering: .relaxed)
            unchanged = now == stalledAt ? unchanged + 1 : 0
            stalledAt = now
        }
        #expect(stalledAt < 48 << 20, "the producer ran \(stalledAt) bytes ahead of a client that read 64 KiB")
        stream.cancel()
        client.shutdown()
        await gateway.stop()
    }

    @Test("an upload of unknown length passes as it arrives, and arrives whole")
    func chunkedUpload() async throws {
        let size = 6 << 20
        let upstream = StreamingResponder(streams: true) { request in
            var digest = Digest()
            if let stream = request.bodyStream {
                do {
                    while let piece = try await stream.next() { digest.add(piece) }
                } catch {
                    return HTTPResponse(status: .badRequest, body: Array("\(error)".utf8))
                }
            } else {
                digest.add(request.body)
            }
            return HTTPResponse(status: .ok, body: Array("\(digest.count) \(digest.value)".utf8))
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        var request = Self.request(gateway, "/o/upload", method: .put)
        request.bodyStream = GeneratedBody.stream(size: size, announcingLength: false)
        let response = try await client.send(request, timeout: .seconds(20), maximumResponseBytes: 1 << 20)
        let expected = GeneratedBody.digest(size: size)
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "\(expected.count) \(expected.value)")
        client.shutdown()
        await gateway.stop()
    }

    @Test("an upload that takes longer than the upstream's timeout passes while each piece comes in time")
    func slowUpload() async throws {
        let pieces = 8
        let upstream = StreamingResponder(streams: true) { request in
            let body = (try? await request.bodyStream?.collect(upTo: 1 << 20)) ?? request.body
            return HTTPResponse(status: .ok, body: Array("\(body.count)".utf8))
        }
        let (server, gateway) = try Self.start(upstream, environment: ["UPSTREAM_ORIGIN_TIMEOUT_MS": "400"])
        defer { server.shutdown() }
        let client = HTTPClient()
        var request = Self.request(gateway, "/o/upload", method: .post)
        request.bodyStream = .writing(length: nil) { writer in
            for _ in 0..<pieces {
                try await Task.sleep(for: .milliseconds(100))
                try await writer.write(Array(repeating: 0x61, count: 1000))
            }
        }
        let response = try await client.send(request, timeout: .seconds(20), maximumResponseBytes: 1 << 20)
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "\(pieces * 1000)")
        client.shutdown()
        await gateway.stop()
    }

    @Test("an upload over the route's limit is answered 413: at once when its length says so, else when the limit is crossed")
    func uploadLimit() async throws {
        let upstream = StreamingResponder(streams: true) { request in
            _ = try? await request.bodyStream?.collect(upTo: 1 << 20)
            return HTTPResponse(status: .ok)
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        var declared = Self.request(gateway, "/small/declared", method: .post)
        declared.body = [UInt8](repeating: 1, count: 1001)
        let refusedAtOnce = try await client.send(declared, timeout: .seconds(10), maximumResponseBytes: 1 << 20)
        var chunked = Self.request(gateway, "/small/chunked", method: .post)
        chunked.bodyStream = GeneratedBody.stream(size: 1 << 20, announcingLength: false)
        let refusedOnTheWay = try await client.send(chunked, timeout: .seconds(10), maximumResponseBytes: 1 << 20)
        var fits = Self.request(gateway, "/small/fits", method: .post)
        fits.bodyStream = GeneratedBody.stream(size: 1000, announcingLength: false)
        let passed = try await client.send(fits, timeout: .seconds(10), maximumResponseBytes: 1 << 20)
        #expect(refusedAtOnce.status == .contentTooLarge)
        #expect(refusedAtOnce.headers["Content-Type"] == "application/problem+json")
        #expect(refusedOnTheWay.status == .contentTooLarge)
        #expect(passed.status == .ok)
        client.shutdown()
        await gateway.stop()
    }

    @Test("a client that goes away ends the upstream's stream at once")
    func disconnectCancelsUpstream() async throws {
        let ended = Signal()
        let upstream = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], bodyStream: .writing { writer in
                do {
                    while true { try await writer.write(Array("data: tick\n\n".utf8)) }
                } catch {
                    ended.reach(1)
                    throw error
                }
            })
        }
        let (server, gateway) = try Self.start(upstream)
        defer { server.shutdown() }
        let client = HTTPClient()
        let response = try await client.send(Self.request(gateway, "/o/ticks"), timeout: .seconds(10), maximumResponseBytes: 1 << 20, streamingBodiesOver: 0)
        let stream = try #require(response.bodyStream)
        #expect(try await stream.next() != nil)
        let left = ContinuousClock.now
        stream.cancel()
        await ended.wait(for: 1)
        #expect(ContinuousClock.now - left < .seconds(1))
        client.shutdown()
        await gateway.stop()
    }
}

/// A responder made of a closure, which may take request bodies as streams.
private struct StreamingResponder: HTTPResponder {
    let streams: Bool
    let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    init(streams: Bool = false, _ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.streams = streams
        self.handler = handler
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handler(request)
    }

    func streamsBody(of head: RequestHead) -> Bool { streams }
}

/// Counts reached so far, and tasks waiting for a count: a test's side and a stub's side in step.
final class Signal: Sendable {
    private let state = Mutex<(reached: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    func reach(_ count: Int) {
        let ready = state.withLock { state in
            state.reached = max(state.reached, count)
            let ready = state.waiters.filter { $0.0 <= state.reached }.map(\.1)
            state.waiters.removeAll { $0.0 <= state.reached }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { continuation in
            let isReached = state.withLock { state in
                if state.reached >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isReached { continuation.resume() }
        }
    }
}

/// A body of any size made of a repeatable pattern, so both ends know its digest without holding it.
enum GeneratedBody {
    static func piece(at offset: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: (offset + $0) &* 31 &+ (offset + $0) >> 9) }
    }

    static func stream(size: Int, announcingLength: Bool = true) -> HTTPBodyStream {
        .writing(length: announcingLength ? size : nil) { writer in
            var offset = 0
            while offset < size {
                let count = min(256 << 10, size - offset)
                try await writer.write(piece(at: offset, count: count))
                offset += count
            }
        }
    }

    static func digest(size: Int) -> Digest {
        var digest = Digest()
        var offset = 0
        while offset < size {
            let count = min(256 << 10, size - offset)
            digest.add(piece(at: offset, count: count))
            offset += count
        }
        return digest
    }
}

/// FNV-1a over a byte stream, and its length.
struct Digest: Equatable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var count = 0

    mutating func add(_ bytes: [UInt8]) {
        var value = value
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        self.value = value
        count += bytes.count
    }
}
