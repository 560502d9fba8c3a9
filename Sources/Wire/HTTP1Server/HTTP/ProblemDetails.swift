public import HTTPBasics
import JSONCoding

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
        JSONString.append(type, to: &bytes)
        bytes.append(contentsOf: #","title":"#.utf8)
        JSONString.append(title, to: &bytes)
        bytes.append(contentsOf: #","status":"#.utf8)
        bytes.append(contentsOf: String(status).utf8)
        if let detail {
            bytes.append(contentsOf: #","detail":"#.utf8)
            JSONString.append(detail, to: &bytes)
        }
        if let instance {
            bytes.append(contentsOf: #","instance":"#.utf8)
            JSONString.append(instance, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
