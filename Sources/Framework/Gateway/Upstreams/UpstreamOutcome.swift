import HTTPBasics
import UpstreamKit

/// How one upstream call ended, as counted in metrics and written in access logs.
enum UpstreamOutcome: Int, CaseIterable, Sendable {
    case success
    case clientError
    case serverError
    case rateLimited
    case timedOut
    case connectionFailed
    case invalidResponse
    case refusedLink
    case invalidRequest
    case circuitOpen
    case overloaded
    case cancelled

    /// The outcome of a call whose answer is passed on whatever its status (a proxy route's):
    /// counted by its status as a failed call of an endpoint would be, and as a success below 400.
    init(answered status: HTTPStatus) {
        switch status.code {
        case 429: self = .rateLimited
        case 400..<500: self = .clientError
        case 500...: self = .serverError
        default: self = .success
        }
    }

    init(_ error: UpstreamError) {
        switch error {
        case .status(let status, _) where status.code == 429: self = .rateLimited
        case .status(let status, _) where status.code < 500: self = .clientError
        case .status: self = .serverError
        case .timedOut: self = .timedOut
        case .connectionFailed, .untrustedCertificate: self = .connectionFailed
        case .invalidResponse, .decodingFailed, .bodyTooLarge, .undecodableBody, .tooManyRedirects: self = .invalidResponse
        case .refusedLink, .refusedRedirect: self = .refusedLink
        case .invalidRequest, .requestBodyFailed: self = .invalidRequest
        case .circuitOpen: self = .circuitOpen
        case .overloaded: self = .overloaded
        case .cancelled: self = .cancelled
        }
    }

    /// The metric label value.
    var label: String {
        switch self {
        case .success: "success"
        case .clientError: "client_error"
        case .serverError: "server_error"
        case .rateLimited: "rate_limited"
        case .timedOut: "timeout"
        case .connectionFailed: "connection_failed"
        case .invalidResponse: "invalid_response"
        case .refusedLink: "refused_link"
        case .invalidRequest: "invalid_request"
        case .circuitOpen: "circuit_open"
        case .overloaded: "overloaded"
        case .cancelled: "cancelled"
        }
    }
}
