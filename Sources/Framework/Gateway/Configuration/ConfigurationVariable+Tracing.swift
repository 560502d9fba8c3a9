extension ConfigurationVariable {
    static let otelSDKDisabled = ConfigurationVariable(
        "OTEL_SDK_DISABLED", default: "false", "true: export no spans whatever else is set")
    static let otlpEndpoint = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_ENDPOINT", default: "",
        "base URL of an OTLP/HTTP collector; spans go to {it}/v1/traces as http/protobuf; unset exports none")
    static let otlpTracesEndpoint = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", default: "", "full URL spans are posted to, instead of the one OTEL_EXPORTER_OTLP_ENDPOINT makes")
    static let otlpHeaders = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_HEADERS", default: "", "headers of every export, 'name=value' pairs separated by ',' (values percent-encoded)",
        isSecret: true)
    static let otlpCompression = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_COMPRESSION", default: "none", "gzip: gzip export bodies; none: send them as they are")
    static let otlpTimeout = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_TIMEOUT", default: "10000", "timeout of one export, in milliseconds")
    static let otlpCertificate = ConfigurationVariable(
        "OTEL_EXPORTER_OTLP_CERTIFICATE", default: "", "PEM file of the CAs an https collector's certificate is checked against, instead of the system's")
    static let otelServiceName = ConfigurationVariable(
        "OTEL_SERVICE_NAME", default: "gateway", "service.name of the exported spans")
    static let otelResourceAttributes = ConfigurationVariable(
        "OTEL_RESOURCE_ATTRIBUTES", default: "", "more resource attributes of the exported spans, 'key=value' pairs separated by ','")
    static let otelTracesSampler = ConfigurationVariable(
        "OTEL_TRACES_SAMPLER", default: "parentbased_always_on",
        "which traces are exported: always_on, always_off, traceidratio or parentbased_ before one of them (the client's sampled flag decides)")
    static let otelTracesSamplerArgument = ConfigurationVariable(
        "OTEL_TRACES_SAMPLER_ARG", default: "1", "the ratio from 0 to 1 of the traceidratio samplers")
    static let bspScheduleDelay = ConfigurationVariable(
        "OTEL_BSP_SCHEDULE_DELAY", default: "5000", "milliseconds a span waits for more to share its export (a full batch goes at once)")
    static let bspExportTimeout = ConfigurationVariable(
        "OTEL_BSP_EXPORT_TIMEOUT", default: "30000", "milliseconds one batch's export may take, its retries included")
    static let bspMaximumQueueSize = ConfigurationVariable(
        "OTEL_BSP_MAX_QUEUE_SIZE", default: "2048", "spans waiting for export at most; more are dropped and counted")
    static let bspMaximumExportBatchSize = ConfigurationVariable(
        "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", default: "512", "spans in one export at most, no more than OTEL_BSP_MAX_QUEUE_SIZE")

    /// The variables of trace export, in the order `--help` lists them.
    static let tracing: [ConfigurationVariable] = [
        otelSDKDisabled, otlpEndpoint, otlpTracesEndpoint, otlpHeaders, otlpCompression, otlpTimeout, otlpCertificate, otelServiceName,
        otelResourceAttributes, otelTracesSampler, otelTracesSamplerArgument, bspScheduleDelay, bspExportTimeout, bspMaximumQueueSize,
        bspMaximumExportBatchSize,
    ]
}
