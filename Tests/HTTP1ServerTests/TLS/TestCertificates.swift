import NetworkRuntime

/// The test-only certificates of Tests/Certificates (made by its make-certificates.py).
enum TestCertificates {
    /// The absolute path of `name` in Tests/Certificates.
    static func path(_ name: String) -> String {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        // …/Tests/HTTP1ServerTests/TLS/TestCertificates.swift → …/Tests/Certificates/name
        components.removeLast(3)
        return (components + ["Certificates", Substring(name)]).joined(separator: "/")
    }

    /// A server context presenting `stem`.pem with its key, requiring client certificates signed
    /// by `authority` when given.
    static func server(_ stem: String = "server", requiringClientsOf authority: String? = nil) throws -> TLSContext {
        try .server(
            certificateFile: path(stem + ".pem"), privateKeyFile: path(stem + ".key"),
            trustedClientCertificatesFile: authority.map { path($0) })
    }

    /// A client context trusting the test authority, presenting the test client certificate when asked.
    static func client(withCertificate: Bool = false) throws -> TLSContext {
        try .client(
            trustedCertificatesFile: path("ca.pem"),
            certificateFile: withCertificate ? path("client.pem") : nil,
            privateKeyFile: withCertificate ? path("client.key") : nil)
    }
}
