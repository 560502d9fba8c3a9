import HTTPBasics
import UpstreamKit

extension UpstreamFailure {
    /// The client-facing problem when a required part fails: statuses per SCENARIO.md, and a
    /// detail that names the upstream but never relays its body, URL or credentials.
    var problem: GatewayProblem {
        switch error {
        case .status(let status, _) where status == .notFound:
            return GatewayProblem(.notFound, "upstream \(upstream) answered 404")
        case .status(let status, let retryAfter) where status == .tooManyRequests:
            return GatewayProblem(.serviceUnavailable, "upstream \(upstream) answered 429", retryAfter: retryAfter)
        case .status(let status, _):
            return GatewayProblem(.badGateway, "upstream \(upstream) answered \(status.code)")
        case .timedOut:
            return GatewayProblem(.gatewayTimeout, "upstream \(upstream) did not answer in time")
        case .connectionFailed:
            return GatewayProblem(.badGateway, "upstream \(upstream) could not be reached")
        case .untrustedCertificate(let reason):
            return GatewayProblem(.badGateway, "upstream \(upstream) presented a certificate that is not trusted: \(reason)")
        case .invalidResponse:
            return GatewayProblem(.badGateway, "upstream \(upstream) sent an invalid HTTP response")
        case .decodingFailed:
            return GatewayProblem(.badGateway, "upstream \(upstream) sent invalid JSON")
        case .bodyTooLarge(let limit):
            return GatewayProblem(.badGateway, "upstream \(upstream) sent a body over \(limit) bytes")
        case .undecodableBody(let reason):
            return GatewayProblem(.badGateway, "upstream \(upstream) sent a body that cannot be decoded: \(reason)")
        case .refusedLink:
            return GatewayProblem(.badGateway, "upstream \(upstream) sent a link outside its base URL")
        case .refusedRedirect:
            // Where it pointed stays in the operator's log: it may name hosts of the internal network.
            return GatewayProblem(.badGateway, "upstream \(upstream) redirected outside its base URL; not followed")
        case .tooManyRedirects:
            return GatewayProblem(.badGateway, description)
        case .invalidRequest:
            return GatewayProblem(.badGateway, "the request to upstream \(upstream) could not be sent safely")
        case .overloaded:
            return GatewayProblem(.serviceUnavailable, "upstream \(upstream) has too many calls waiting")
        case .circuitOpen(let retryAfter):
            return GatewayProblem(.serviceUnavailable, "upstream \(upstream) is failing; calls are paused", retryAfter: retryAfter)
        case .requestBodyFailed(.tooLarge(let limit)):
            return GatewayProblem(.contentTooLarge, "the request body is over \(limit) bytes")
        case .requestBodyFailed(.timedOut):
            return GatewayProblem(.requestTimeout, "the request body stopped arriving")
        case .requestBodyFailed(.cancelled), .cancelled:
            return GatewayProblem(.clientClosedRequest, "the request was cancelled")
        case .requestBodyFailed:
            return GatewayProblem(.badRequest, "the request body broke off")
        }
    }

    /// The outcome label of this failure in metrics and access logs.
    var outcome: UpstreamOutcome { UpstreamOutcome(error) }
}

extension HTTPStatus {
    /// nginx's code for a request whose client went away before the answer: only ever logged.
    static let clientClosedRequest = HTTPStatus(code: 499, reasonPhrase: "Client Closed Request")
}
