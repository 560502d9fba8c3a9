import HTTPBasics

/// An RFC 9457 problem details object, the body of every error response.
///
/// Serialised as `{"type":"about:blank","title":…,"status":…,"detail":…,"instance":…}`;
/// `detail` and `instance` are left out when nil.
public struct ProblemDetails: Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var instance: String?

    public init(type: String = "about:blank", title: String, status: Int, detail: String? = nil, instance: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
    }

    /// A problem of type `about:blank`, titled with the status's reason phrase as RFC 9457 §4.2.1 asks.
    public init(status: HTTPStatus, detail: String? = nil, instance: String? = nil) {
        self.init(title: status.reasonPhrase, status: status.code, detail: detail, instance: instance)
    }

    /// The UTF-8 JSON encoding.
    public var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + title.utf8.count + (detail?.utf8.count ?? 0) + (instance?.utf8.count ?? 0))
        bytes.append(contentsOf: #"{"type":"#.utf8)
        Self.appendJSONString(type, to: &bytes)
        bytes.append(contentsOf: #","title":"#.utf8)
        Self.appendJSONString(title, to: &bytes)
        bytes.append(contentsOf: #","status":"#.utf8)
        bytes.append(contentsOf: String(status).utf8)
        if let detail {
            bytes.append(contentsOf: #","detail":"#.utf8)
            Self.appendJSONString(detail, to: &bytes)
        }
        if let instance {
            bytes.append(contentsOf: #","instance":"#.utf8)
            Self.appendJSONString(instance, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Appends `string` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped; everything else, non-ASCII included, copied as UTF-8.
    static func appendJSONString(_ string: String, to bytes: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
                bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
