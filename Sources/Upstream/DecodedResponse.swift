import HTTPBasics

/// An upstream's answer with its body decoded: the value, and the status and header fields it
/// came with, for callers that record or act on more than the value.
public struct DecodedResponse<Value> {
    public var value: Value
    public var status: HTTPStatus
    public var headers: HTTPHeaders

    public init(value: Value, status: HTTPStatus, headers: HTTPHeaders) {
        self.value = value
        self.status = status
        self.headers = headers
    }
}

extension DecodedResponse: Sendable where Value: Sendable {}
