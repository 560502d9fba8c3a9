import ASCIISyntax
import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// Where and how the gateway exports its spans, from the OpenTelemetry SDK's environment
/// variables (`ConfigurationVariable.tracing`).
struct TracingConfiguration: Sendable {
    /// The collector's origin and the target spans are posted to (`/v1/traces` below the base URL).
    var origin: Origin
    var target: String
    /// `OTEL_EXPORTER_OTLP_HEADERS`, sent with every export; secrets, never logged.
    var headers: HTTPHeaders
    var gzip: Bool
    var timeout: Duration
    /// The client context for an https collector; nil for http.
    var tls: TLSContext?
    var source: OTLPTraceEncoding.Source
    var sampler: TraceSampler
    var batching = SpanBatching()
}

/// How the exporter batches spans, as the OpenTelemetry SDK's batch span processor variables
/// (`OTEL_BSP_*`) set it, with their defaults.
struct SpanBatching: Sendable, Equatable {
    /// Spans the queue holds at most; more are dropped and counted.
    var queueCapacity = 2048
    /// Spans in one export at most; at most `queueCapacity`.
    var batchSize = 512
    /// How long a span waits for more to share its export.
    var scheduleDelay: Duration = .seconds(5)
    /// How long one batch's export may take, its retries included.
    var exportTimeout: Duration = .seconds(30)
}

extension EnvironmentReader {
    /// The export settings, nil when no endpoint is set or `OTEL_SDK_DISABLED` is true; every
    /// variable is read either way, so a bad value is reported before it matters.
    func tracing() throws(ConfigurationError) -> TracingConfiguration? {
        let disabled = try choice(.otelSDKDisabled, from: ["true", "false"]) == "true"
        let gzip = try choice(.otlpCompression, from: ["none", "gzip"]) == "gzip"
        let timeout = try milliseconds(.otlpTimeout, in: 1...600_000)
        let headers = try keyValueList(.otlpHeaders).reduce(into: HTTPHeaders()) { $0.add($1.key, $1.value) }
        for field in headers where !FieldSyntax.isToken(field.name) || !FieldSyntax.isFieldValue(field.value) {
            throw ConfigurationError(variable: ConfigurationVariable.otlpHeaders.name, problem: "has an invalid header name or value")
        }
        // OTEL_SERVICE_NAME, when set, wins over a service.name among the attributes.
        var resource = try keyValueList(.otelResourceAttributes)
            .filter { $0.key != "service.name" || environment[ConfigurationVariable.otelServiceName.name] == nil }
            .map { SpanAttribute($0.key, $0.value) }
        if !resource.contains(where: { $0.key == "service.name" }) { resource.insert(SpanAttribute("service.name", text(.otelServiceName)), at: 0) }
        resource += [SpanAttribute("telemetry.sdk.name", "swift-bff-gateway"), SpanAttribute("telemetry.sdk.language", "swift")]
        let samplerName = text(.otelTracesSampler)
        guard let sampler = TraceSampler(name: samplerName, argument: environment[ConfigurationVariable.otelTracesSamplerArgument.name]) else {
            if !TraceSampler.names.contains(samplerName) {
                throw ConfigurationError(
                    variable: ConfigurationVariable.otelTracesSampler.name,
                    problem: "must be one of \(TraceSampler.names.joined(separator: ", ")), got \(quoted(samplerName, of: .otelTracesSampler))")
            }
            throw ConfigurationError(
                variable: ConfigurationVariable.otelTracesSamplerArgument.name,
                problem: "must be a ratio from 0 to 1, got \(quoted(text(.otelTracesSamplerArgument), of: .otelTracesSamplerArgument))")
        }
        let batching = try spanBatching()
        let endpoint: (url: BaseURL, target: String)
        if path(.otlpTracesEndpoint) != nil {
            let url = try baseURL(.otlpTracesEndpoint)
            endpoint = (url, url.target)
        } else if path(.otlpEndpoint) != nil {
            let url = try baseURL(.otlpEndpoint)
            endpoint = (url, url.pathPrefix + "/v1/traces")
        } else {
            return nil
        }
        let tls = try clientTLS(for: endpoint.url, authorities: .otlpCertificate, of: "an https collector")
        guard !disabled else { return nil }
        return TracingConfiguration(
            origin: endpoint.url.origin, target: endpoint.target, headers: headers, gzip: gzip, timeout: timeout, tls: tls,
            source: OTLPTraceEncoding.Source(resourceAttributes: resource, scopeName: "swift-bff-gateway", scopeVersion: GatewayVersion.current),
            sampler: sampler, batching: batching)
    }

    /// `OTEL_BSP_*`: the queue's bound, the batch's size (no larger than the queue: the default
    /// is cut down to a smaller queue, as the Go SDK does; a size set larger is refused), the
    /// delay and the export's timeout.
    private func spanBatching() throws(ConfigurationError) -> SpanBatching {
        var batching = SpanBatching(
            queueCapacity: try integer(.bspMaximumQueueSize, in: 1...1_000_000),
            batchSize: try integer(.bspMaximumExportBatchSize, in: 1...1_000_000),
            scheduleDelay: try milliseconds(.bspScheduleDelay, in: 1...3_600_000),
            exportTimeout: try milliseconds(.bspExportTimeout, in: 1...3_600_000))
        if environment[ConfigurationVariable.bspMaximumExportBatchSize.name] == nil {
            batching.batchSize = min(batching.batchSize, batching.queueCapacity)
        }
        guard batching.batchSize <= batching.queueCapacity else {
            throw ConfigurationError(
                variable: ConfigurationVariable.bspMaximumExportBatchSize.name,
                problem: "must be at most OTEL_BSP_MAX_QUEUE_SIZE (\(batching.queueCapacity)), got \(batching.batchSize)")
        }
        return batching
    }

    /// `key=value` pairs separated by `,`, values percent-decoded, as the OpenTelemetry SDK's
    /// list variables (the W3C Baggage format without properties) are written; a value that
    /// decodes to a NUL byte or to no UTF-8 is refused.
    func keyValueList(_ variable: ConfigurationVariable) throws(ConfigurationError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for (position, pair) in text(variable).split(separator: ",").enumerated() {
            let trimmed = pair.trimmingWhitespace
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "="),
                  let value = PercentDecoding.decode(trimmed[trimmed.index(after: equals)...].trimmingWhitespace.utf8, plusAsSpace: false)
            else {
                throw ConfigurationError(variable: variable.name, problem: "entry \(position + 1) is not 'key=value' with a percent-encoded value")
            }
            let key = String(trimmed[..<equals].trimmingWhitespace)
            guard !key.isEmpty else { throw ConfigurationError(variable: variable.name, problem: "entry \(position + 1) has no key") }
            pairs.append((key, value))
        }
        return pairs
    }
}
