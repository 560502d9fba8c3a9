import GatewayTesting
import HTTP1
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing
import UpstreamKit

@testable import Gateway

/// The exporter against a collector on loopback: a stub that answers `/v1/traces` as told and
/// reports each request it received.
@Suite("OTLP span export over sockets")
struct SpanExportTests {
    static let spans = (1...3).map { index in
        var span = OTLPTraceEncodingTests.span
        span.spanID = UInt64(index)
        return span
    }

    /// A collector answering each export with the next of `statuses` (the last one thereafter).
    final class Collector: Sendable {
        let stub: StubUpstream
        let received: AsyncStream<StubUpstream.ReceivedRequest>
        private let answered = Mutex(0)

        init(statuses: [(Int, HTTPHeaders)]) throws {
            stub = try StubUpstream()
            let (received, continuation) = AsyncStream<StubUpstream.ReceivedRequest>.makeStream()
            self.received = received
            stub.answer("/v1/traces", method: .post) { [self] request in
                let index = self.answered.withLock { count in
                    defer { count += 1 }
                    return min(count, statuses.count - 1)
                }
                continuation.yield(request)
                return HTTPResponse(status: HTTPStatus(code: statuses[index].0), headers: statuses[index].1)
            }
        }

        func configuration(gzip: Bool = false, batching: SpanBatching = SpanBatching()) throws -> TracingConfiguration {
            let environment = [
                "OTEL_EXPORTER_OTLP_ENDPOINT": stub.baseURL, "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20secret,x-tenant=t1",
                "OTEL_EXPORTER_OTLP_COMPRESSION": gzip ? "gzip" : "none",
            ]
            var configuration = try #require(try EnvironmentReader(environment: environment).tracing())
            configuration.batching = batching
            return configuration
        }
    }

    @Test("a full batch is posted at once as gzipped protobuf with the configured headers, and counted")
    func exportsBatch() async throws {
        let collector = try Collector(statuses: [(200, [:])])
        defer { collector.stub.shutdown() }
        let exporter = SpanExporter(configuration: try collector.configuration(gzip: true, batching: SpanBatching(batchSize: 3, scheduleDelay: .seconds(600))))
        let running = Task { await exporter.run() }
        exporter.enqueue(Self.spans)
        var requests = collector.received.makeAsyncIterator()
        let request = try #require(await requests.next())
        #expect(request.path == "/v1/traces")
        #expect(request.headers["Content-Type"] == "application/x-protobuf")
        #expect(request.headers["Content-Encoding"] == "gzip")
        #expect(request.headers["Authorization"] == "Bearer secret" && request.headers["x-tenant"] == "t1")
        var body: [UInt8] = []
        let inflater = try Inflater(format: .gzip)
        try request.body.withUnsafeBytes { try inflater.inflate($0, appendingTo: &body, maximumOutputBytes: 1 << 20) }
        #expect(body == OTLPTraceEncoding.exportRequest(Self.spans, from: exporter.configuration.source))
        exporter.stop()
        await running.value
        #expect(exporter.exported == 3 && exporter.failed == 0 && exporter.dropped == 0)
    }

    @Test("a 503 with Retry-After is retried, a 400 is not; both are counted")
    func retries() async throws {
        let collector = try Collector(statuses: [(503, ["Retry-After": "0"]), (200, [:]), (400, [:])])
        defer { collector.stub.shutdown() }
        let exporter = SpanExporter(configuration: try collector.configuration(batching: SpanBatching(batchSize: 3, scheduleDelay: .seconds(600))))
        let running = Task { await exporter.run() }
        exporter.enqueue(Self.spans)
        var requests = collector.received.makeAsyncIterator()
        _ = await requests.next()
        _ = await requests.next()
        exporter.enqueue(Self.spans)
        _ = await requests.next()
        exporter.stop()
        await running.value
        #expect(exporter.exported == 3 && exporter.failed == 3)
        #expect(collector.stub.received.count == 3)
    }

    @Test("a full queue drops and counts what does not fit, and never grows")
    func boundedQueue() throws {
        let collector = try Collector(statuses: [(200, [:])])
        defer { collector.stub.shutdown() }
        let exporter = SpanExporter(configuration: try collector.configuration(batching: SpanBatching(queueCapacity: 4, batchSize: 100)))
        exporter.enqueue(Self.spans)
        exporter.enqueue(Self.spans)
        exporter.enqueue(Self.spans)
        #expect(exporter.dropped == 5)
    }

    @Test("a collector that is away fails the batch after the retries, and shutdown's flush gives up at its deadline")
    func collectorAway() async throws {
        let collector = try Collector(statuses: [(200, [:])])
        let configuration = try collector.configuration(batching: SpanBatching(batchSize: 3))
        collector.stub.shutdown()
        let exporter = SpanExporter(
            configuration: configuration, retry: ExportRetry(attempts: 2, firstDelay: .milliseconds(1), longestDelay: .milliseconds(1)))
        exporter.enqueue(Self.spans)
        await exporter.flush(until: .now.advanced(by: .seconds(30)))
        #expect(exporter.failed == 3 && exporter.exported == 0)
    }

    @Test("retry delays: back-off doubles up to its longest, Retry-After wins, other answers are final")
    func retryPolicy() {
        let retry = ExportRetry(attempts: 4, firstDelay: .milliseconds(100), longestDelay: .milliseconds(300))
        #expect(retry.delay(afterAttempt: 1, status: 503, retryAfter: nil) == .milliseconds(100))
        #expect(retry.delay(afterAttempt: 2, status: nil, retryAfter: nil) == .milliseconds(200))
        #expect(retry.delay(afterAttempt: 3, status: 429, retryAfter: nil) == .milliseconds(300))
        #expect(retry.delay(afterAttempt: 4, status: 503, retryAfter: nil) == nil)
        #expect(retry.delay(afterAttempt: 1, status: 429, retryAfter: " 0 ") == .zero)
        #expect(retry.delay(afterAttempt: 1, status: 504, retryAfter: "120") == .milliseconds(300))
        #expect(retry.delay(afterAttempt: 1, status: 400, retryAfter: nil) == nil)
        #expect(retry.delay(afterAttempt: 1, status: 500, retryAfter: nil) == nil)
    }

    @Test("bad OTEL variables stop start-up with one line naming the variable, never a header's value", arguments: [
        (["OTEL_TRACES_SAMPLER": "sometimes"], "OTEL_TRACES_SAMPLER"),
        (["OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"], "OTEL_TRACES_SAMPLER_ARG"),
        (["OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"], "OTEL_EXPORTER_OTLP_COMPRESSION"),
        (["OTEL_EXPORTER_OTLP_TIMEOUT": "0"], "OTEL_EXPORTER_OTLP_TIMEOUT"),
        (["OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://collector"], "OTEL_EXPORTER_OTLP_ENDPOINT"),
        (["OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%2"], "OTEL_EXPORTER_OTLP_HEADERS"),
        (["OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=eu%00"], "OTEL_RESOURCE_ATTRIBUTES"),
        (["OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=%C3"], "OTEL_RESOURCE_ATTRIBUTES"),
        (["OTEL_SDK_DISABLED": "yes"], "OTEL_SDK_DISABLED"),
        (["OTEL_BSP_SCHEDULE_DELAY": "soon"], "OTEL_BSP_SCHEDULE_DELAY"),
        (["OTEL_BSP_EXPORT_TIMEOUT": "0"], "OTEL_BSP_EXPORT_TIMEOUT"),
        (["OTEL_BSP_MAX_QUEUE_SIZE": "-1"], "OTEL_BSP_MAX_QUEUE_SIZE"),
        (["OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4096"], "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
        (["OTEL_BSP_MAX_QUEUE_SIZE": "10", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "20"], "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
        (["OTEL_EXPORTER_OTLP_CERTIFICATE": "/ca.pem", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"], "OTEL_EXPORTER_OTLP_CERTIFICATE"),
    ] as [([String: String], String)])
    func badVariables(environment: [String: String], variable: String) {
        #expect(throws: ConfigurationError.self) { try EnvironmentReader(environment: environment).tracing() }
        do {
            _ = try EnvironmentReader(environment: environment).tracing()
        } catch {
            #expect(error.variable == variable)
            #expect(!error.description.contains("Bearer"))
        }
    }

    @Test("the endpoints, the resource and off")
    func configuration() throws {
        let traces = try #require(
            try EnvironmentReader(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/base", "OTEL_SERVICE_NAME": "bff",
                "OTEL_RESOURCE_ATTRIBUTES": "service.name=other,deployment.environment=prod%2Ceu",
            ]).tracing())
        #expect(traces.target == "/base/v1/traces" && traces.origin.host == "collector" && traces.origin.port == 4318)
        #expect(traces.source.resourceAttributes.prefix(2) == [SpanAttribute("service.name", "bff"), SpanAttribute("deployment.environment", "prod,eu")])
        #expect(traces.sampler == TraceSampler(rule: .alwaysOn, followsParent: true))
        #expect(traces.batching == SpanBatching(queueCapacity: 2048, batchSize: 512, scheduleDelay: .seconds(5), exportTimeout: .seconds(30)))
        let batched = try #require(
            try EnvironmentReader(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_BSP_SCHEDULE_DELAY": "250", "OTEL_BSP_EXPORT_TIMEOUT": "2000",
                "OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "100",
            ]).tracing())
        #expect(batched.batching == SpanBatching(queueCapacity: 100, batchSize: 100, scheduleDelay: .milliseconds(250), exportTimeout: .seconds(2)))
        // A queue smaller than the default batch cuts the batch down to it.
        let small = try #require(
            try EnvironmentReader(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_BSP_MAX_QUEUE_SIZE": "64"]).tracing())
        #expect(small.batching.batchSize == 64)
        let explicit = try #require(
            try EnvironmentReader(environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://other:9999/otlp/traces",
            ]).tracing())
        #expect(explicit.target == "/otlp/traces" && explicit.origin.host == "other")
        #expect(try EnvironmentReader(environment: [:]).tracing() == nil)
        #expect(try EnvironmentReader(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"]).tracing() == nil)
    }
}
