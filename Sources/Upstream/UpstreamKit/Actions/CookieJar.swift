public import Foundation
import Synchronization

/// Keeps the cookies one upstream sets and sends them back to it, such as a rate-limit cookie `rl`.
///
/// Honours `Path`, `Max-Age` (over `Expires`), `Expires` and `Secure`; `Domain` is only checked against
/// the upstream's host, because the jar belongs to one upstream and never sends to anyone else.
/// Holds at most `capacity` cookies, dropping the oldest first. The cookies of an answer to a
/// request that does not store them (`TransportRequest.storesCookies`) are left alone: they
/// belong to the one client it was relayed for. Such a relayed request gets the jar's cookies
/// only when it carries the upstream's credentials (`requiresAuthentication`): they are the
/// session the upstream keeps with the gateway, not with that client.
public final class CookieJar: UpstreamAction {
    private let cookies = Mutex<[Cookie]>([])
    private let capacity: Int
    private let now: @Sendable () -> Int

    /// - Parameter now: wall-clock seconds since 1970, injectable for tests.
    public init(capacity: Int = 50, now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.capacity = capacity
        self.now = now
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard request.storesCookies || request.requiresAuthentication else { return }
        let time = now()
        let header = cookies.withLock { cookies -> String? in
            guard !cookies.isEmpty else { return nil }
            cookies.removeAll { $0.isExpired(at: time) }
            let path = Substring(request.target.utf8.prefix { $0 != UInt8(ascii: "?") })
            let isSecure = request.origin.scheme == "https"
            let matching = cookies
                .filter { $0.matches(path: path) && (isSecure || !$0.isSecureOnly) }
                .sorted { $0.path.utf8.count > $1.path.utf8.count }
            return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        }
        guard let header else { return }
        if let existing = request.headers["Cookie"] {
            request.headers.set("Cookie", existing + "; " + header)
        } else {
            request.headers.add("Cookie", header)
        }
    }

    public func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        guard request.storesCookies else { return .accept }
        let values = response.headers.values(named: "Set-Cookie")
        guard !values.isEmpty else { return .accept }
        let path = String(Substring(request.target.utf8.prefix { $0 != UInt8(ascii: "?") }))
        let time = now()
        let parsed = values.compactMap {
            Cookie.parse($0, host: request.origin.host, requestPath: path, isSecureOrigin: request.origin.scheme == "https", now: time)
        }
        cookies.withLock { cookies in
            for cookie in parsed {
                cookies.removeAll { $0.name == cookie.name && $0.path == cookie.path }
                if !cookie.isExpired(at: time) { cookies.append(cookie) }
            }
            if cookies.count > capacity { cookies.removeFirst(cookies.count - capacity) }
        }
        return .accept
    }
}
