/// A sign-in the browser was sent to the provider for, kept on the server until the callback.
///
/// The callback is accepted once, only with the `state` this sign-in made (so a code injected by another
/// site is refused), before its deadline, and only without an `error` from the provider; the `nonce` is
/// then checked in the ID token and the `codeVerifier` proves this client started the flow (PKCE).
public struct PendingSignIn: Sendable, Equatable {
    /// Why a callback was refused; each is answered without signing anyone in.
    public enum Refusal: Error, Sendable, Equatable {
        /// The provider answered with `error` (for example `access_denied`), which is only logged.
        case providerError(String)
        /// `state` absent or different from the one this sign-in sent.
        case stateMismatch
        /// No `code` in the callback.
        case missingCode
        /// The callback came after the sign-in's deadline.
        case expired
    }

    /// The opaque `state` sent in the authorization request.
    public let state: String
    /// The `nonce` the ID token must carry.
    public let nonce: String
    /// The PKCE verifier whose S256 challenge was sent.
    public let codeVerifier: String
    /// Where the browser goes after signing in, already accepted by a `ReturnURLPolicy`.
    public let returnURL: String
    /// Seconds since the epoch after which the callback is refused.
    public let deadline: Double

    /// A pending sign-in with its secrets, its return URL and its deadline.
    public init(state: String, nonce: String, codeVerifier: String, returnURL: String, deadline: Double) {
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.returnURL = returnURL
        self.deadline = deadline
    }

    /// The authorization code of a callback with query parameters `parameters`, received at `now`.
    public func code(from parameters: [String: String], now: Double) throws(Refusal) -> String {
        guard now <= deadline else { throw .expired }
        guard let sent = parameters["state"], Self.constantTimeEqual(sent, state) else { throw .stateMismatch }
        if let error = parameters["error"] { throw .providerError(error) }
        guard let code = parameters["code"], !code.isEmpty else { throw .missingCode }
        return code
    }

    /// Comparison whose time does not depend on where the strings first differ.
    package static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
