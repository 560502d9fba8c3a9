/// Which return URLs `GET /bff/login?returnUrl=…` accepts: where the browser goes after signing in.
///
/// An open redirect on the sign-in path lets a phishing link end on an attacker's page with the
/// gateway's origin in the address bar, so by default only a path on this origin is accepted, and
/// every spelling a browser reads as another origin is refused: `//evil`, `/\evil` (browsers treat
/// `\` as `/`), control characters and tabs (which browsers strip, turning `/\t/evil` into `//evil`),
/// and a scheme. Absolute URLs are accepted only when their origin is listed exactly.
public struct ReturnURLPolicy: Sendable, Equatable {
    /// Origins (`https://app.example.com`, lower-cased, no path, no trailing slash) whose absolute URLs
    /// are also accepted; empty by default: relative paths only.
    public var allowedOrigins: Set<String>

    /// A policy that accepts relative paths on this origin and absolute URLs on `allowedOrigins`.
    public init(allowedOrigins: Set<String> = []) {
        self.allowedOrigins = Set(allowedOrigins.map { $0.lowercased() })
    }

    /// `candidate` when it is a safe place to send the browser, nil otherwise; nil or empty gives `/`.
    public func accepted(_ candidate: String?) -> String? {
        guard let candidate, !candidate.isEmpty else { return "/" }
        guard candidate.utf8.count <= 2048,
            !candidate.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == "\\" })
        else { return nil }
        if candidate.hasPrefix("/") {
            return candidate.hasPrefix("//") ? nil : candidate
        }
        guard let origin = Self.origin(of: candidate), allowedOrigins.contains(origin) else { return nil }
        return candidate
    }

    /// `scheme://authority` of an absolute http(s) URL, lower-cased; nil for anything else or a URL with user info.
    package static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") { scheme = "https://" } else if lowered.hasPrefix("http://") { scheme = "http://" } else { return nil }
        let rest = lowered.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return scheme + authority
    }
}
