import Foundation
import HTTPBasics

/// Which redirects an upstream's calls follow and what each next request is (RFC 9110 §15.4):
/// the pure part of `RedirectFollower`.
///
/// Like Go's client: 301, 302, 303, 307 and 308 are followed, an answer without a `Location`
/// is the answer; 303 (but for HEAD), and 301 or 302 after a POST, turn into a GET without a body,
/// while 307 and 308 keep method and body. Unlike it, only targets under the upstream's base URL
/// (`BaseURL.target(forLink:)`, the rule links obey) are followed, so a redirect never sends the
/// upstream's credentials, or anything else, to a host the configuration did not name.
struct RedirectPolicy: Sendable {
    let baseURL: BaseURL
    /// Redirects followed in one call; one more fails it with `.tooManyRedirects`.
    let maximumRedirects: Int

    /// What to do with an answer.
    enum Step {
        /// The answer is the call's: not a redirect, or one without a `Location`.
        case answer
        /// Send this request next.
        case follow(TransportRequest)
        /// Fail the call with this error; nothing more is sent.
        case refuse(UpstreamError)
    }

    /// Whether `status` is a redirect that this policy may follow: the one check an answer that is
    /// not a redirect costs.
    static func isRedirect(_ status: HTTPStatus) -> Bool {
        switch status.code {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The step after `response` answered `request`, the last of `redirectsSoFar` redirects.
    func step(after response: Response, to request: TransportRequest, redirectsSoFar: Int) -> Step {
        guard Self.isRedirect(response.status), let location = response.headers["Location"], !location.isEmpty else {
            return .answer
        }
        guard let url = URLReference.resolve(location, origin: request.origin, target: request.target) else {
            return .refuse(.invalidResponse(reason: "redirect to an invalid Location"))
        }
        let target: String
        do {
            target = try baseURL.target(forLink: url)
        } catch {
            return .refuse(.refusedRedirect(target: Self.displayed(url)))
        }
        guard redirectsSoFar < maximumRedirects else { return .refuse(.tooManyRedirects(limit: maximumRedirects)) }
        var next = request
        next.target = target
        let code = response.status.code
        if (code == 303 && request.method != .head) || ((code == 301 || code == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.headers.remove("Content-Type")
            next.headers.remove("Content-Length")
        }
        return .follow(next)
    }

    /// `url` as an error may name it: no userinfo, which may hold a password, no query, which may
    /// hold a signature or a token, and at most 200 characters.
    static func displayed(_ url: String) -> String {
        var shown = url.prefix { $0 != "?" }
        if let schemeEnd = shown.range(of: "://") {
            let authorityEnd = shown[schemeEnd.upperBound...].firstIndex(of: "/") ?? shown.endIndex
            if let at = shown[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") {
                shown = Substring(shown[..<schemeEnd.upperBound] + shown[shown.index(after: at)...])
            }
        }
        return shown.count > 200 ? shown.prefix(200) + "…" : String(shown)
    }
}
