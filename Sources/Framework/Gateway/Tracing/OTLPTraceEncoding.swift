/// The protobuf encoding of an OTLP `ExportTraceServiceRequest`
/// (opentelemetry-proto, `collector/trace/v1/trace_service.proto`), the body of
/// `POST /v1/traces` in the `http/protobuf` protocol: one resource, one instrumentation scope,
/// and the spans of a batch.
///
/// Written here rather than generated, as the gateway depends on no packages: only the fields
/// the gateway sets are written, and proto3 leaves out fields at their default values.
enum OTLPTraceEncoding {
    /// What produced the spans: the `Resource`'s attributes (`service.name` and the operator's
    /// `OTEL_RESOURCE_ATTRIBUTES`) and the instrumentation scope's name and version.
    struct Source: Sendable, Equatable {
        var resourceAttributes: [SpanAttribute]
        var scopeName: String
        var scopeVersion: String
    }

    /// The request body for `spans`, all from `source`.
    static func exportRequest(_ spans: some Collection<Span>, from source: Source) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.message(field: 1) { resourceSpans in  // ExportTraceServiceRequest.resource_spans
            resourceSpans.message(field: 1) { resource in  // ResourceSpans.resource
                for attribute in source.resourceAttributes { resource.keyValue(field: 1, attribute) }
            }
            resourceSpans.message(field: 2) { scopeSpans in  // ResourceSpans.scope_spans
                scopeSpans.message(field: 1) { scope in  // ScopeSpans.scope
                    scope.string(field: 1, source.scopeName)
                    scope.string(field: 2, source.scopeVersion)
                }
                for span in spans {
                    scopeSpans.message(field: 2) { $0.span(span) }  // ScopeSpans.spans
                }
            }
        }
        return writer.bytes
    }
}

/// Appends protobuf wire format (https://protobuf.dev/programming-guides/encoding/) to a buffer.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    private enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private mutating func tag(_ field: UInt64, _ type: WireType) {
        varint(field << 3 | type.rawValue)
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint field, left out at zero as proto3 does.
    mutating func varint(field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    mutating func fixed64(field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func fixed32(field: UInt64, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, .fixed32)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A string field, left out when empty.
    mutating func string(field: UInt64, _ value: String) {
        guard !value.isEmpty else { return }
        tag(field, .lengthDelimited)
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// A bytes field holding `words` big-endian, as trace and span ids are written on the wire.
    mutating func identifier(field: UInt64, _ words: UInt64...) {
        tag(field, .lengthDelimited)
        varint(UInt64(words.count * 8))
        for word in words { withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) } }
    }

    /// An embedded message, written in place: its length is known only once `body` has run, so a
    /// one-byte length is assumed and the body moved along when it needs more.
    mutating func message(field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
        } else {
            var prefix = ProtobufWriter()
            prefix.varint(UInt64(length))
            bytes.replaceSubrange(lengthAt..<lengthAt + 1, with: prefix.bytes)
        }
    }

    /// A `KeyValue` message with its `AnyValue`.
    mutating func keyValue(field: UInt64, _ attribute: SpanAttribute) {
        message(field: field) { keyValue in
            keyValue.string(field: 1, attribute.key)
            keyValue.message(field: 2) { value in
                switch attribute.value {
                case .string(let string):
                    // Written even when empty: an empty AnyValue would read as no value at all.
                    value.tag(1, .lengthDelimited)
                    value.varint(UInt64(string.utf8.count))
                    value.bytes.append(contentsOf: string.utf8)
                case .bool(let bool):
                    value.tag(2, .varint)
                    value.varint(bool ? 1 : 0)
                case .int(let int):
                    value.tag(3, .varint)
                    value.varint(UInt64(bitPattern: int))
                case .double(let double):
                    value.tag(4, .fixed64)
                    withUnsafeBytes(of: double.bitPattern.littleEndian) { value.bytes.append(contentsOf: $0) }
                }
            }
        }
    }

    /// The fields of a `Span` message.
    mutating func span(_ span: Span) {
        identifier(field: 1, span.traceID.high, span.traceID.low)
        identifier(field: 2, span.spanID)
        if span.parentSpanID != 0 { identifier(field: 4, span.parentSpanID) }
        string(field: 5, span.name)
        varint(field: 6, UInt64(span.kind.rawValue))
        fixed64(field: 7, span.startNanoseconds)
        fixed64(field: 8, span.endNanoseconds)
        for attribute in span.attributes { keyValue(field: 9, attribute) }
        for event in span.events {
            message(field: 11) { message in
                message.fixed64(field: 1, event.timeNanoseconds)
                message.string(field: 2, event.name)
                for attribute in event.attributes { message.keyValue(field: 3, attribute) }
            }
        }
        if case .error(let description) = span.status {
            message(field: 15) { status in
                status.string(field: 2, description)
                status.varint(field: 3, 2)  // STATUS_CODE_ERROR
            }
        }
        // SpanFlags: the W3C flags in the low byte, then whether the parent's remoteness is known
        // (bit 8) and whether it is remote (bit 9).
        fixed32(field: 16, UInt32(span.flags) | 0x100 | (span.parentIsRemote ? 0x200 : 0))
    }
}
