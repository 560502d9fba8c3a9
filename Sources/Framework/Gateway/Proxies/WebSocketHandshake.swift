import COpenSSL
import Foundation
import HTTP1
import HTTP1Server
import HTTPBasics

/// The opening handshake of a WebSocket (RFC 6455 §4) as a proxy route checks it: the client's
/// request before anything goes upstream, and the upstream's `101` before it goes back. Pure.
enum WebSocketHandshake {
    /// The GUID that RFC 6455 §1.3 appends to the key before hashing it.
    private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The one version of the protocol (RFC 6455 §4.1).
    static let version = "13"

    /// The client's fields passed to the upstream, beside the ones every proxied request carries.
    static let forwardedFields = ["Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions"]

    /// Whether `request` asks for a WebSocket (`Upgrade` lists `websocket`): it is then checked
    /// as one, never passed on as a plain request.
    static func isRequested(by request: HTTPRequest) -> Bool {
        request.headers.values(named: "Upgrade").contains { hasToken("websocket", in: $0) }
    }

    /// Why a request that asks for a WebSocket cannot open one.
    struct Refusal: Error, Equatable {
        /// 400, or 426 for a version other than 13.
        let status: HTTPStatus
        let detail: String

        /// The problem+json answer; a 426 says which version the gateway speaks.
        func response(instance: String) -> HTTPResponse {
            let headers: HTTPHeaders = status == .upgradeRequired ? ["Sec-WebSocket-Version": WebSocketHandshake.version] : [:]
            return .problem(status, detail: detail, instance: instance, headers: headers)
        }
    }

    /// The request's `Sec-WebSocket-Key` when `request` is a valid opening handshake: GET over
    /// HTTP/1.1, `Connection` listing `upgrade`, version 13, and a key that is the base64 of 16 bytes.
    static func key(of request: HTTPRequest) throws(Refusal) -> String {
        guard request.method == .get else {
            throw Refusal(status: .badRequest, detail: "A WebSocket opens with GET, not \(request.method.rawValue).")
        }
        guard request.version == .http1_1 else {
            throw Refusal(status: .badRequest, detail: "A WebSocket opens over HTTP/1.1.")
        }
        guard request.headers.values(named: "Connection").contains(where: { hasToken("upgrade", in: $0) }) else {
            throw Refusal(status: .badRequest, detail: "A WebSocket request must say Connection: upgrade.")
        }
        let versions = request.headers.values(named: "Sec-WebSocket-Version")
        guard versions == [version] else {
            throw Refusal(status: .upgradeRequired, detail: "The gateway speaks WebSocket version 13 only.")
        }
        let keys = request.headers.values(named: "Sec-WebSocket-Key")
        guard keys.count == 1, let key = keys.first, isValidKey(key) else {
            throw Refusal(status: .badRequest, detail: "Sec-WebSocket-Key must be the base64 of 16 bytes.")
        }
        return key
    }

    /// The `Sec-WebSocket-Accept` that proves a server read `key`: base64 of the SHA-1 of the key
    /// and the GUID.
    static func acceptValue(for key: String) -> String {
        let input = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = input.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha1(), nil) == 1
        }
        // EVP_Digest fails only without memory or with SHA-1 disabled, neither recoverable.
        precondition(succeeded, "OpenSSL cannot compute SHA-1")
        return Data(digest.prefix(Int(length))).base64EncodedString()
    }

    /// Whether the upstream's `101` completes the handshake of `key`: it switched to `websocket`
    /// and proved it read the key.
    static func accepts(_ upstreamAnswer: HTTPHeaders, key: String) -> Bool {
        upstreamAnswer.values(named: "Upgrade").contains { hasToken("websocket", in: $0) }
            && upstreamAnswer.values(named: "Sec-WebSocket-Accept") == [acceptValue(for: key)]
    }

    /// 24 characters of base64 that decode to 16 bytes.
    private static func isValidKey(_ key: String) -> Bool {
        guard key.utf8.count == 24, let bytes = Data(base64Encoded: key) else { return false }
        return bytes.count == 16
    }

    /// Whether the comma-separated list `value` holds `token`, ignoring case and spaces.
    private static func hasToken(_ token: String, in value: String) -> Bool {
        value.split(separator: ",").contains { $0.trimmingWhitespace.equalsIgnoringASCIICase(token) }
    }
}
