public import HTTPBasics

extension HTTPResponse {
    /// A response carrying already encoded JSON, with `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers, body: body)
        response.headers.set("Content-Type", "application/json")
        return response
    }

    /// An RFC 9457 problem response with `Content-Type: application/problem+json`.
    public static func problem(_ problem: ProblemDetails, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = HTTPResponse(status: HTTPStatus(code: problem.status), headers: headers, body: problem.jsonBytes)
        response.headers.set("Content-Type", "application/problem+json")
        return response
    }

    /// A problem response for `status` whose title is the status's reason phrase.
    public static func problem(
        _ status: HTTPStatus,
        detail: String? = nil,
        instance: String? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        problem(ProblemDetails(status: status, detail: detail, instance: instance), headers: headers)
    }
}
