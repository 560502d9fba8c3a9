/// The test-only certificates of Tests/Certificates (made by its make-certificates.py).
enum TestCertificates {
    /// The absolute path of `name` in Tests/Certificates.
    static func path(_ name: String) -> String {
        // …/Tests/GatewayTests/Support/TestCertificates.swift → …/Tests/Certificates/name
        let tests = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        return (tests + ["Certificates", Substring(name)]).joined(separator: "/")
    }
}
