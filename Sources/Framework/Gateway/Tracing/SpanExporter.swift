import HTTP1
import HTTP1Client
import HTTP1ClientTransport
import HTTPBasics
import Synchronization
import UpstreamKit

/// Sends finished spans to an OTLP/HTTP collector in batches, off the requests' path: a request
/// only appends its spans to a bounded queue, which drops (and counts) what does not fit rather
/// than grow while the collector is slow or away; one task posts the queue's batches, retrying
/// as `ExportRetry` says.
final class SpanExporter: Sendable {
    let configuration: TracingConfiguration
    let retry: ExportRetry
    private let transport: any Transport
    private let queue = Mutex(Queue())
    private let counters = Counters()

    private struct Queue {
        var spans: [Span] = []
        /// Resumed when the queue fills a batch or the exporter stops, so a full batch goes at once.
        var waiter: CheckedContinuation<Void, Never>?
        var stopping = false
    }

    /// What `/metrics` shows of the export.
    final class Counters: Sendable {
        let exported = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
    }

    /// Batches as `configuration.batching` says.
    init(configuration: TracingConfiguration, retry: ExportRetry = ExportRetry(), transport: (any Transport)? = nil) {
        self.configuration = configuration
        self.retry = retry
        self.transport = transport ?? PooledTransport(client: HTTPClient(), tls: configuration.tls)
    }

    /// The export's counters in Prometheus' text format.
    func render(into text: inout String) {
        for (name, help, count) in [
            ("gateway_spans_exported_total", "Spans the OTLP collector accepted.", exported),
            ("gateway_spans_dropped_total", "Spans dropped because the export queue was full.", dropped),
            ("gateway_spans_failed_total", "Spans given up after the collector refused or failed their export.", failed),
        ] {
            PrometheusText.header(name, type: "counter", help: help, into: &text)
            text += "\(name) \(count)\n"
        }
    }

    var exported: Int { counters.exported.load(ordering: .relaxed) }
    var dropped: Int { counters.dropped.load(ordering: .relaxed) }
    var failed: Int { counters.failed.load(ordering: .relaxed) }

    /// Whether the spans of a request in `trace` are exported, as the sampler decides.
    func samples(_ trace: TraceContext) -> Bool {
        configuration.sampler.samples(traceID: trace.traceID, parentSampled: trace.parentSampled)
    }

    private var batchSize: Int { configuration.batching.batchSize }

    /// Queues `spans` for export, dropping those the queue has no room for; never waits.
    func enqueue(_ spans: [Span]) {
        let (dropped, batchFull) = queue.withLock { queue in
            let room = max(0, configuration.batching.queueCapacity - queue.spans.count)
            queue.spans.append(contentsOf: spans.prefix(room))
            return (spans.count - min(room, spans.count), queue.spans.count >= batchSize && queue.waiter != nil)
        }
        if dropped > 0 { counters.dropped.add(dropped, ordering: .relaxed) }
        if batchFull { resumeWaiter() }
    }

    /// Exports until `stop()`: a batch when one is full or `scheduleDelay` after the last export.
    func run() async {
        while true {
            await waitForBatch()
            // Once stopping, what is queued is left to `flush(until:)`, which has a deadline.
            guard let batch = queue.withLock({ queue -> [Span]? in
                if queue.stopping { return nil }
                let batch = Array(queue.spans.prefix(batchSize))
                queue.spans.removeFirst(batch.count)
                return batch
            }) else { return }
            if !batch.isEmpty { await export(batch, until: .now.advanced(by: configuration.batching.exportTimeout), duringShutdown: false) }
        }
    }

    /// Stops `run()` after its current export, which is not retried any more.
    func stop() {
        queue.withLock { $0.stopping = true }
        resumeWaiter()
    }

    /// Exports what is queued, giving up at `deadline`: the flush of a shutdown within its drain.
    func flush(until deadline: ContinuousClock.Instant) async {
        while ContinuousClock.now < deadline {
            let batch = queue.withLock { queue in
                let batch = Array(queue.spans.prefix(batchSize))
                queue.spans.removeFirst(batch.count)
                return batch
            }
            if batch.isEmpty { return }
            await export(batch, until: min(deadline, .now.advanced(by: configuration.batching.exportTimeout)), duringShutdown: true)
        }
    }

    private func waitForBatch() async {
        await withCheckedContinuation { continuation in
            let resumeNow = queue.withLock { queue -> Bool in
                if queue.stopping || queue.spans.count >= batchSize { return true }
                queue.waiter = continuation
                return false
            }
            if resumeNow { return continuation.resume() }
            // The schedule's delay ends the wait unless a full batch or a stop ended it first; a
            // timer outliving its wait at most ends a later one early, which only exports sooner.
            Task { [scheduleDelay = configuration.batching.scheduleDelay] in
                try? await Task.sleep(for: scheduleDelay)
                self.resumeWaiter()
            }
        }
    }

    /// Ends the run loop's wait, if it is waiting; the waiter is taken under the lock, so it is resumed once.
    private func resumeWaiter() {
        let waiter = queue.withLock { queue in
            defer { queue.waiter = nil }
            return queue.waiter
        }
        waiter?.resume()
    }

    /// Posts `batch`, retrying as `retry` says but never past `deadline`, nor, unless this is the
    /// flush of a shutdown, once the exporter stops; counts it exported or failed.
    private func export(_ batch: [Span], until deadline: ContinuousClock.Instant, duringShutdown: Bool) async {
        var body = OTLPTraceEncoding.exportRequest(batch, from: configuration.source)
        var headers = configuration.headers
        headers.set("Content-Type", "application/x-protobuf")
        if configuration.gzip, let compressed = try? Deflater(level: Deflater.defaultLevel, inputBytes: body.count).gzip(body) {
            body = compressed
            headers.set("Content-Encoding", "gzip")
        }
        var attempt = 1
        while true {
            var status: Int?
            var retryAfter: String?
            do throws(UpstreamError) {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { throw .timedOut }
                let response = try await transport.send(
                    TransportRequest(
                        method: .post, origin: configuration.origin, target: configuration.target, headers: headers, body: body,
                        timeout: min(configuration.timeout, left), maximumResponseBytes: 64 * 1024, storesCookies: false, followsRedirects: false,
                        acceptsCompression: false))
                status = response.status.code
                retryAfter = response.headers["Retry-After"]
                if (200..<300).contains(response.status.code) {
                    counters.exported.add(batch.count, ordering: .relaxed)
                    return
                }
            } catch {
                status = nil
            }
            guard let delay = retry.delay(afterAttempt: attempt, status: status, retryAfter: retryAfter),
                  ContinuousClock.now.advanced(by: delay) < deadline, duringShutdown || !queue.withLock({ $0.stopping }),
                  (try? await Task.sleep(for: delay)) != nil
            else {
                counters.failed.add(batch.count, ordering: .relaxed)
                return
            }
            attempt += 1
        }
    }
}
